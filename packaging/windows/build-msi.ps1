<#
.SYNOPSIS
  Builds the per-machine MSI (packaging\windows\treasury.wxs, WiX Toolset v5) from PyInstaller's
  dist\treasury-app folder.

.DESCRIPTION
  Run from anywhere, after the PyInstaller build (packaging\WINDOWS.md):

    dotnet tool install --global wix --version 5.0.2                 # once
    wix extension add --global WixToolset.Util.wixext/5.0.2           # once
    $env:SIGN_PFX_PASSWORD = "..."                                    # only to sign
    powershell -ExecutionPolicy Bypass -File packaging\windows\build-msi.ps1 `
        -Python .venv\Scripts\python.exe -Publisher "ACME Tesouraria Ltda" [-SignPfx codesign.pfx]

  Writes dist\treasury-app-<version>.msi when signed, dist\treasury-app-<version>-UNSIGNED.msi
  otherwise, and prints its path as its only output. The MSI's version is
  treasury_app.__version__ as four numbers (packaging\windows\version_info.py --numeric);
  before building, both executables' version resources are checked against it and against
  the publisher (the spec writes them on Windows, from $env:TREASURY_PUBLISHER).

  Signing (-SignPfx): both executables before they go into the MSI, then the MSI, each with
  signtool (SHA-256, RFC 3161 timestamp from -TimestampUrl) and verified after signing
  (signtool verify /pa, and Get-AuthenticodeSignature: valid, by this certificate). The
  certificate's subject must be the publisher. The PFX password is read from the environment
  variable -SignPasswordEnv names, never from a parameter.

.PARAMETER Python
  The Python with the project (the build venv's python.exe). Default: python on PATH.
.PARAMETER Dist
  PyInstaller's one-folder output. Default: dist\treasury-app.
.PARAMETER Version
  Another MSI version than the project's (four numbers), e.g. to test an upgrade in CI.
.PARAMETER Output
  The .msi to write. Default: dist\treasury-app-<version>.msi. Unsigned, "-UNSIGNED" is added
  before ".msi" whatever the name.
.PARAMETER Publisher
  The publisher's name: the MSI's Manufacturer, the executables' CompanyName, the subject of
  the signing certificate. Required; no placeholder.
.PARAMETER SignPfx
  The code-signing certificate (.pfx). Without it the build is unsigned, and named so.
.PARAMETER SignPasswordEnv
  The environment variable holding the PFX password. Default: SIGN_PFX_PASSWORD.
.PARAMETER TimestampUrl
  The RFC 3161 timestamp server (signtool /tr). Default: http://timestamp.digicert.com.
#>
[CmdletBinding()]
param(
    [string]$Python = "python",
    [string]$Dist = "dist\treasury-app",
    [string]$Version = "",
    [string]$Output = "",
    [string]$Publisher = "",
    [string]$SignPfx = "",
    [string]$SignPasswordEnv = "SIGN_PFX_PASSWORD",
    [string]$TimestampUrl = "http://timestamp.digicert.com"
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

function Find-SignTool {
    # signtool.exe of the newest Windows 10/11 SDK (on PATH first, e.g. a Developer prompt).
    $onPath = Get-Command signtool.exe -ErrorAction SilentlyContinue
    if ($onPath) { return $onPath.Source }
    $kits = Join-Path ${env:ProgramFiles(x86)} "Windows Kits\10\bin"
    $found = Get-ChildItem -Path $kits -Filter signtool.exe -Recurse -ErrorAction SilentlyContinue |
        Where-Object { $_.Directory.Name -eq "x64" } |
        Sort-Object {
            $sdk = $null
            if ([version]::TryParse($_.Directory.Parent.Name, [ref]$sdk)) { $sdk } else { [version]"0.0" }
        } -Descending |
        Select-Object -First 1
    if (-not $found) { throw "signtool.exe not found: install the Windows SDK's signing tools" }
    return $found.FullName
}

# Signs $Paths with the PFX, timestamped, then checks each signature twice: signtool's
# Authenticode policy (/pa) and PowerShell's view (valid, and made by this very certificate).
function Invoke-Signing {
    param([string[]]$Paths)
    $signtool = Find-SignTool
    Invoke-Checked "signtool sign" {
        & $signtool sign /fd SHA256 /f $SignPfx /p $script:signPassword `
            /tr $TimestampUrl /td SHA256 /d "Treasury" $Paths
    } | Out-Host
    foreach ($path in $Paths) {
        Invoke-Checked "signtool verify $path" { & $signtool verify /pa /tw $path } | Out-Host
        $signature = Get-AuthenticodeSignature -FilePath $path
        if ($signature.Status -ne "Valid") { throw "${path}: signature $($signature.Status): $($signature.StatusMessage)" }
        if ($signature.SignerCertificate.Thumbprint -ne $script:signCertificate.Thumbprint) {
            throw "${path}: signed by $($signature.SignerCertificate.Subject), not by $SignPfx"
        }
        if (-not $signature.TimeStamperCertificate) { throw "${path}: signed without a timestamp" }
        Write-Host "== signed and verified: $path"
    }
}

$Publisher = $Publisher.Trim()
if (-not $Publisher) {
    throw "-Publisher is required: the company's name, as on its code-signing certificate"
}
$signed = [bool]$SignPfx
if ($signed) {
    $script:signPassword = [Environment]::GetEnvironmentVariable($SignPasswordEnv)
    if (-not $script:signPassword) { throw "-SignPfx given but `$env:$SignPasswordEnv is empty" }
    $SignPfx = (Resolve-Path $SignPfx).Path
    $script:signCertificate = [System.Security.Cryptography.X509Certificates.X509Certificate2]::new(
        $SignPfx, $script:signPassword)
    $subject = $script:signCertificate.GetNameInfo(
        [System.Security.Cryptography.X509Certificates.X509NameType]::SimpleName, $false)
    if ($subject -ne $Publisher) {
        throw "the certificate is issued to '$subject', the publisher is '$Publisher': they must match"
    }
}

$projectVersion = (Invoke-Checked "version_info.py --numeric" { & $Python packaging\windows\version_info.py --numeric }).Trim()
if (-not $Version) { $Version = $projectVersion }
if ($Version -notmatch '^\d+\.\d+\.\d+\.\d+$') { throw "Version must be four numbers: '$Version'" }
if (-not $Output) {
    $plain = ($Version -split '\.')[0..2] -join '.'
    $Output = "dist\treasury-app-$plain.msi"
}
if (-not $signed -and $Output -notmatch '-UNSIGNED\.msi$') {
    if ($Output -match '\.msi$') { $Output = $Output.Substring(0, $Output.Length - 4) }
    $Output = "$Output-UNSIGNED.msi"
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
    if ($info.CompanyName -ne $Publisher) {
        throw "$exe names '$($info.CompanyName)' as its company, expected '$Publisher' (set `$env:TREASURY_PUBLISHER before PyInstaller)"
    }
}
if ($signed) {
    Invoke-Signing -Paths @((Join-Path $distPath "treasury-app.exe"), (Join-Path $distPath "treasury-app-cli.exe"))
} else {
    Write-Host "== not signed (no -SignPfx): $Output"
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
        -ext WixToolset.Util.wixext `
        -d "Version=$Version" `
        -d "Publisher=$Publisher" `
        -bindpath "App=$distPath" `
        -bindpath "Packaging=$(Join-Path $Root 'packaging')" `
        -o $Output `
        packaging\windows\treasury.wxs
} | Out-Host

if ($signed) { Invoke-Signing -Paths @($Output) }

$size = [math]::Round((Get-Item $Output).Length / 1MB, 1)
Write-Host "== MSI ready: $Output ($size MB, $(if ($signed) { 'signed' } else { 'UNSIGNED' }))"
$Output
