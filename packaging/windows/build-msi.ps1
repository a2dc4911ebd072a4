<#
.SYNOPSIS
  Builds the per-machine MSI (packaging\windows\treasury.wxs, WiX Toolset v5) from PyInstaller's
  dist\treasury-app folder.

.DESCRIPTION
  Run from anywhere, after the PyInstaller build (packaging\WINDOWS.md):

    dotnet tool install --global wix --version 5.0.2     # once
    powershell -ExecutionPolicy Bypass -File packaging\windows\build-msi.ps1 -Python .venv\Scripts\python.exe

  Writes dist\treasury-app-<version>.msi. The MSI's version is treasury_app.__version__ as four
  numbers (packaging\windows\version_info.py --numeric); before building, both executables'
  version resources are checked against it (the spec writes them on Windows).

.PARAMETER Python
  The Python with the project (the build venv's python.exe). Default: python on PATH.
.PARAMETER Dist
  PyInstaller's one-folder output. Default: dist\treasury-app.
.PARAMETER Version
  Another MSI version than the project's (four numbers), e.g. to test an upgrade in CI.
.PARAMETER Output
  The .msi to write. Default: dist\treasury-app-<version>.msi.
#>
[CmdletBinding()]
param(
    [string]$Python = "python",
    [string]$Dist = "dist\treasury-app",
    [string]$Version = "",
    [string]$Output = ""
)
$ErrorActionPreference = "Stop"
Set-StrictMode -Version Latest

$Root = (Resolve-Path (Join-Path $PSScriptRoot "..\..")).Path
Set-Location $Root

function Invoke-Checked {
    param([string]$What, [scriptblock]$Command)
    $result = & $Command
    if ($LASTEXITCODE -ne 0) { throw "$What failed (exit code $LASTEXITCODE)" }
    return $result
}

$projectVersion = (Invoke-Checked "version_info.py --numeric" { & $Python packaging\windows\version_info.py --numeric }).Trim()
if (-not $Version) { $Version = $projectVersion }
if ($Version -notmatch '^\d+\.\d+\.\d+\.\d+$') { throw "Version must be four numbers: '$Version'" }
if (-not $Output) {
    $plain = ($Version -split '\.')[0..2] -join '.'
    $Output = "dist\treasury-app-$plain.msi"
}

# The folder PyInstaller built, with both executables and their version resources.
$distPath = (Resolve-Path $Dist).Path
foreach ($exe in @("treasury-app.exe", "treasury-app-cli.exe")) {
    $path = Join-Path $distPath $exe
    if (-not (Test-Path $path)) { throw "$path is missing: build with PyInstaller first (packaging\WINDOWS.md)" }
    $info = (Get-Item $path).VersionInfo
    if ($info.FileVersion -ne $projectVersion -or $info.OriginalFilename -ne $exe) {
        throw "$exe has version resource '$($info.FileVersion)' / '$($info.OriginalFilename)', expected '$projectVersion' / '$exe'"
    }
}

$wixVersion = Invoke-Checked "wix --version" { wix --version }
if (-not "$wixVersion".StartsWith("5.")) {
    throw "WiX Toolset v5 is needed (found '$wixVersion'): dotnet tool install --global wix --version 5.0.2"
}

$outputDir = Split-Path -Parent $Output
if ($outputDir) { New-Item -ItemType Directory -Force -Path $outputDir | Out-Null }
Write-Host "== wix ${wixVersion}: $distPath -> $Output (version $Version)"
Invoke-Checked "wix build" {
    wix build -arch x64 `
        -d "Version=$Version" `
        -bindpath "App=$distPath" `
        -bindpath "Packaging=$(Join-Path $Root 'packaging')" `
        -o $Output `
        packaging\windows\treasury.wxs
} | Out-Host

$size = [math]::Round((Get-Item $Output).Length / 1MB, 1)
Write-Host "== MSI ready: $Output ($size MB)"
