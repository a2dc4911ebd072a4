<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="pt_BR">
<context>
    <name>AmountConfirmation</name>
    <message>
        <source>e.g. 1.234,56</source>
        <translation>ex.: 1.234,56</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
</context>
<context>
    <name>ApiStatus</name>
    <message>
        <source>%1: locked</source>
        <translation>%1: bloqueada</translation>
    </message>
    <message>
        <source>✗ not connected</source>
        <translation>✗ não conectada</translation>
    </message>
    <message>
        <source>✓ token until %1</source>
        <translation>✓ token até %1</translation>
    </message>
    <message>
        <source>· certificate %1 d</source>
        <translation>· certificado %1 d</translation>
    </message>
    <message>
        <source>%1 API</source>
        <translation>API %1</translation>
    </message>
    <message>
        <source>Certificate valid until %1</source>
        <translation>Certificado válido até %1</translation>
    </message>
    <message>
        <source>no token yet</source>
        <translation>ainda sem token</translation>
    </message>
</context>
<context>
    <name>AppController</name>
    <message>
        <source>New profile…</source>
        <translation>Novo perfil…</translation>
    </message>
    <message>
        <source>Switch profile</source>
        <translation>Trocar perfil</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>Perfil</translation>
    </message>
    <message>
        <source>Unlocked. %1 pending payment(s) checked with the bank.</source>
        <translation>Desbloqueado. %1 pagamento(s) pendente(s) conferido(s) com o banco.</translation>
    </message>
    <message>
        <source>Profile saved; the changes apply at the next unlock.</source>
        <translation>Perfil salvo; as alterações valem a partir do próximo desbloqueio.</translation>
    </message>
</context>
<context>
    <name>BalanceCard</name>
    <message>
        <source>Available balance</source>
        <translation>Saldo disponível</translation>
    </message>
    <message>
        <source>Not loaded yet</source>
        <translation>Ainda não carregado</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Atualizar</translation>
    </message>
    <message>
        <source>Reload the balance and the statement (F5)</source>
        <translation>Recarregar o saldo e o extrato (F5)</translation>
    </message>
    <message>
        <source>Available balance: %1</source>
        <translation>Saldo disponível: %1</translation>
    </message>
    <message>
        <source>Blocked: %1</source>
        <translation>Bloqueado: %1</translation>
    </message>
    <message>
        <source>Overdraft limit: %1</source>
        <translation>Limite de cheque especial: %1</translation>
    </message>
    <message>
        <source>Update time not reported by the bank</source>
        <translation>Horário de atualização não informado pelo banco</translation>
    </message>
    <message>
        <source>Updated at %1</source>
        <translation>Atualizado em %1</translation>
    </message>
    <message>
        <source>Could not load the balance</source>
        <translation>Não foi possível carregar o saldo</translation>
    </message>
    <message>
        <source>(may be out of date)</source>
        <translation>(pode estar desatualizado)</translation>
    </message>
</context>
<context>
    <name>BilletReviewDialog</name>
    <message>
        <source>Review the slip</source>
        <translation>Conferir o boleto</translation>
    </message>
    <message>
        <source>Amount to be debited now</source>
        <translation>Valor a ser debitado agora</translation>
    </message>
    <message>
        <source>To confirm, type the amount to be debited (%1):</source>
        <translation>Para confirmar, digite o valor a ser debitado (%1):</translation>
    </message>
    <message>
        <source>Pay</source>
        <translation>Pagar</translation>
    </message>
    <message>
        <source>Beneficiary</source>
        <translation>Beneficiário</translation>
    </message>
    <message>
        <source>CPF/CNPJ</source>
        <translation>CPF/CNPJ</translation>
    </message>
    <message>
        <source>Bank</source>
        <translation>Banco</translation>
    </message>
    <message>
        <source>Digitable line</source>
        <translation>Linha digitável</translation>
    </message>
    <message>
        <source>Due date</source>
        <translation>Vencimento</translation>
    </message>
    <message>
        <source>Original amount</source>
        <translation>Valor original</translation>
    </message>
    <message>
        <source>Charges</source>
        <translation>Encargos</translation>
    </message>
    <message>
        <source>%1 of fine and interest</source>
        <translation>%1 de multa e juros</translation>
    </message>
    <message>
        <source>since %1</source>
        <translation>desde %1</translation>
    </message>
    <message>
        <source>%1 of discount</source>
        <translation>%1 de desconto</translation>
    </message>
    <message>
        <source>None: the original amount is due.</source>
        <translation>Nenhum: será cobrado o valor original.</translation>
    </message>
    <message>
        <source>This is not the amount to be debited.</source>
        <translation>Este não é o valor a ser debitado.</translation>
    </message>
</context>
<context>
    <name>BilletsTab</name>
    <message>
        <source>Pay a slip</source>
        <translation>Pagar boleto</translation>
    </message>
    <message>
        <source>Digitable line or barcode</source>
        <translation>Linha digitável ou código de barras</translation>
    </message>
    <message>
        <source>Look up</source>
        <translation>Consultar</translation>
    </message>
    <message>
        <source>Paid slips</source>
        <translation>Boletos pagos</translation>
    </message>
    <message>
        <source>Receipt…</source>
        <translation>Comprovante…</translation>
    </message>
    <message>
        <source>Show the bank&apos;s receipt of the selected payment</source>
        <translation>Exibir o comprovante emitido pelo banco para o pagamento selecionado</translation>
    </message>
    <message>
        <source>Invalid: %1</source>
        <translation>Inválido: %1</translation>
    </message>
    <message>
        <source>Valid bank slip, bank %1</source>
        <translation>Boleto bancário válido, banco %1</translation>
    </message>
    <message>
        <source>Valid utility/tax slip (segment %1)</source>
        <translation>Boleto de concessionária/tributo válido (segmento %1)</translation>
    </message>
    <message>
        <source>amount %1</source>
        <translation>valor %1</translation>
    </message>
    <message>
        <source>no amount in the line</source>
        <translation>sem valor na linha digitável</translation>
    </message>
    <message>
        <source>due %1</source>
        <translation>vencimento %1</translation>
    </message>
    <message>
        <source>Sending the payment…</source>
        <translation>Enviando o pagamento…</translation>
    </message>
    <message>
        <source>The payment was not sent.</source>
        <translation>O pagamento não foi enviado.</translation>
    </message>
    <message>
        <source>Refused</source>
        <translation>Recusado</translation>
    </message>
    <message>
        <source>Paid</source>
        <translation>Pago</translation>
    </message>
    <message>
        <source>Sent</source>
        <translation>Enviado</translation>
    </message>
    <message>
        <source>%1: %2 (%3 to %4)</source>
        <translation>%1: %2 (%3 para %4)</translation>
    </message>
    <message>
        <source>Fetching the receipt…</source>
        <translation>Buscando o comprovante…</translation>
    </message>
    <message>
        <source>Receipt: %1</source>
        <translation>Comprovante: %1</translation>
    </message>
    <message>
        <source>Could not save the receipt</source>
        <translation>Não foi possível salvar o comprovante</translation>
    </message>
    <message>
        <source>Receipt saved to %1</source>
        <translation>Comprovante salvo em %1</translation>
    </message>
</context>
<context>
    <name>EmptyStateTab</name>
    <message>
        <source>Unlock a profile to see %1.</source>
        <translation>Desbloqueie um perfil para ver %1.</translation>
    </message>
    <message>
        <source>%1 arrives in a coming version.</source>
        <translation>%1: disponível em uma próxima versão.</translation>
    </message>
</context>
<context>
    <name>EnvironmentBadge</name>
    <message>
        <source>SANDBOX — test bank, no real money</source>
        <translation>SANDBOX — banco de testes, sem dinheiro real</translation>
    </message>
    <message>
        <source>PRODUCTION</source>
        <translation>PRODUÇÃO</translation>
    </message>
</context>
<context>
    <name>ErrorBanner</name>
    <message>
        <source>Dismiss</source>
        <translation>Dispensar</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Balance &amp; statement</source>
        <translation>Saldo e extrato</translation>
    </message>
    <message>
        <source>Pix payouts</source>
        <translation>Pagamentos Pix</translation>
    </message>
    <message>
        <source>Boletos</source>
        <translation>Boletos</translation>
    </message>
    <message>
        <source>Charges &amp; batches</source>
        <translation>Cobranças e lotes</translation>
    </message>
    <message>
        <source>Recurrences</source>
        <translation>Recorrências</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Configurações</translation>
    </message>
    <message>
        <source>Locked</source>
        <translation>Bloqueado</translation>
    </message>
    <message>
        <source>Treasury</source>
        <translation>Tesouraria</translation>
    </message>
    <message>
        <source>(SANDBOX)</source>
        <translation>(SANDBOX)</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>Pronto</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Arquivo</translation>
    </message>
    <message>
        <source>&amp;Switch profile…</source>
        <translation>&amp;Trocar perfil…</translation>
    </message>
    <message>
        <source>&amp;Edit profile…</source>
        <translation>&amp;Editar perfil…</translation>
    </message>
    <message>
        <source>&amp;Lock</source>
        <translation>&amp;Bloquear</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Sair</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Exibir</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>&amp;Atualizar</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>Aj&amp;uda</translation>
    </message>
    <message>
        <source>&amp;About Treasury</source>
        <translation>&amp;Sobre a Tesouraria</translation>
    </message>
    <message>
        <source>Treasury %1

Pix payouts, boletos, charges and Pix Automático over mutual TLS.

Python %2 · PySide6 %3 · Qt %4 · httpx %5 · pydantic %6</source>
        <translation>Tesouraria %1

Pagamentos Pix, boletos, cobranças e Pix Automático com TLS mútuo.

Python %2 · PySide6 %3 · Qt %4 · httpx %5 · pydantic %6</translation>
    </message>
    <message>
        <source>About Treasury</source>
        <translation>Sobre a Tesouraria</translation>
    </message>
</context>
<context>
    <name>MoneyEdit</name>
    <message>
        <source>0,00</source>
        <translation>0,00</translation>
    </message>
    <message>
        <source>The amount is above the maximum of %1.</source>
        <translation>O valor é maior que o máximo de %1.</translation>
    </message>
</context>
<context>
    <name>PaidSlipsModel</name>
    <message>
        <source>Date</source>
        <translation>Data</translation>
    </message>
    <message>
        <source>Beneficiary</source>
        <translation>Beneficiário</translation>
    </message>
    <message>
        <source>Due date</source>
        <translation>Vencimento</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Situação</translation>
    </message>
    <message>
        <source>Receipt</source>
        <translation>Comprovante</translation>
    </message>
    <message>
        <source>Archived</source>
        <translation>Arquivado</translation>
    </message>
</context>
<context>
    <name>PaymentsList</name>
    <message>
        <source>All payments</source>
        <translation>Todos os pagamentos</translation>
    </message>
    <message>
        <source>In progress</source>
        <translation>Em andamento</translation>
    </message>
    <message>
        <source>Settled</source>
        <translation>Liquidados</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Com falha</translation>
    </message>
    <message>
        <source>From</source>
        <translation>De</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>Exibir</translation>
    </message>
    <message>
        <source>to</source>
        <translation>até</translation>
    </message>
    <message>
        <source>Payment</source>
        <translation>Pagamento</translation>
    </message>
    <message>
        <source>Payee</source>
        <translation>Favorecido</translation>
    </message>
    <message>
        <source>Document</source>
        <translation>CPF/CNPJ</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Chave</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Descrição</translation>
    </message>
    <message>
        <source>Flow</source>
        <translation>Fluxo</translation>
    </message>
    <message>
        <source>endToEndId</source>
        <translation>endToEndId</translation>
    </message>
    <message>
        <source>Idempotency key</source>
        <translation>Chave de idempotência</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Erro</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Data/hora</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Estado</translation>
    </message>
    <message>
        <source>Bank status</source>
        <translation>Situação no banco</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Observação</translation>
    </message>
    <message>
        <source>View receipt</source>
        <translation>Ver comprovante</translation>
    </message>
    <message>
        <source>Approve (sandbox)</source>
        <translation>Aprovar (sandbox)</translation>
    </message>
    <message>
        <source>Reject (sandbox)</source>
        <translation>Rejeitar (sandbox)</translation>
    </message>
    <message>
        <source>Status history</source>
        <translation>Histórico da situação</translation>
    </message>
    <message>
        <source>Sandbox only: does what the test bank&apos;s web console does. A real bank&apos;s approval happens in the bank&apos;s own channel.</source>
        <translation>Somente no sandbox: faz o que o console web do banco de testes faz. Em um banco real, a aprovação é feita no canal do próprio banco.</translation>
    </message>
    <message>
        <source>QR Code</source>
        <translation>QR Code</translation>
    </message>
    <message>
        <source>Bank data</source>
        <translation>Dados bancários</translation>
    </message>
    <message>
        <source>ISPB %1, branch %2, account %3</source>
        <translation>ISPB %1, agência %2, conta %3</translation>
    </message>
</context>
<context>
    <name>PaymentsModel</name>
    <message>
        <source>Date</source>
        <translation>Data</translation>
    </message>
    <message>
        <source>Payee</source>
        <translation>Favorecido</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Situação</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Chave</translation>
    </message>
    <message>
        <source>QR Code</source>
        <translation>QR Code</translation>
    </message>
    <message>
        <source>Bank data</source>
        <translation>Dados bancários</translation>
    </message>
    <message>
        <source>REJECTED</source>
        <translation>REJEITADO</translation>
    </message>
    <message>
        <source>UNKNOWN — checking with the bank</source>
        <translation>DESCONHECIDO — consultando o banco</translation>
    </message>
</context>
<context>
    <name>PayoutBatchDialog</name>
    <message>
        <source>Pix payouts from a CSV file</source>
        <translation>Pagamentos Pix por arquivo CSV</translation>
    </message>
    <message>
        <source>Open CSV…</source>
        <translation>Abrir CSV…</translation>
    </message>
    <message>
        <source>Save template…</source>
        <translation>Salvar modelo…</translation>
    </message>
    <message>
        <source>No file opened.</source>
        <translation>Nenhum arquivo aberto.</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>Linha</translation>
    </message>
    <message>
        <source>Column</source>
        <translation>Coluna</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Motivo</translation>
    </message>
    <message>
        <source>Payee</source>
        <translation>Favorecido</translation>
    </message>
    <message>
        <source>Key type</source>
        <translation>Tipo de chave</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>Payments to send</source>
        <translation>Pagamentos a enviar</translation>
    </message>
    <message>
        <source>e.g. 1.234,56</source>
        <translation>ex.: 1.234,56</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Interromper</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fechar</translation>
    </message>
    <message>
        <source>Open a payout batch</source>
        <translation>Abrir um lote de pagamentos</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>Arquivos CSV (*.csv)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Todos os arquivos (*)</translation>
    </message>
    <message>
        <source>Save a batch template</source>
        <translation>Salvar um modelo de lote</translation>
    </message>
    <message>
        <source>Template saved to %1</source>
        <translation>Modelo salvo em %1</translation>
    </message>
    <message>
        <source>Pasted text</source>
        <translation>Texto colado</translation>
    </message>
    <message>
        <source>CPF</source>
        <translation>CPF</translation>
    </message>
    <message>
        <source>CNPJ</source>
        <translation>CNPJ</translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation>E-mail</translation>
    </message>
    <message>
        <source>Phone</source>
        <translation>Celular</translation>
    </message>
    <message>
        <source>Random key</source>
        <translation>Chave aleatória</translation>
    </message>
    <message>
        <source>Bank data</source>
        <translation>Dados bancários</translation>
    </message>
    <message>
        <source>Open a CSV file (or save the template first).</source>
        <translation>Abra um arquivo CSV (ou salve o modelo primeiro).</translation>
    </message>
    <message>
        <source>%1 payment(s), %2 in total</source>
        <translation>%1 pagamento(s), %2 no total</translation>
    </message>
    <message>
        <source>%1 row(s) with errors: fix the file, or leave them out.</source>
        <translation>%1 linha(s) com erros: corrija o arquivo ou deixe-as de fora.</translation>
    </message>
    <message>
        <source>Leave out the %1 invalid row(s) and send the others</source>
        <translation>Deixar de fora as %1 linha(s) inválida(s) e enviar as demais</translation>
    </message>
    <message>
        <source>To approve, type the total amount (%1):</source>
        <translation>Para aprovar, digite o valor total (%1):</translation>
    </message>
    <message>
        <source>Send %1 payment(s)</source>
        <translation>Enviar %1 pagamento(s)</translation>
    </message>
    <message>
        <source>This is not the batch&apos;s total.</source>
        <translation>Este não é o valor total do lote.</translation>
    </message>
    <message>
        <source>Rows with errors: tick “Leave out” to send the others.</source>
        <translation>Há linhas com erros: marque “Deixar de fora” para enviar as demais.</translation>
    </message>
    <message>
        <source>Stopping: waiting for the rows on their way…</source>
        <translation>Interrompendo: aguardando as linhas que já estão sendo enviadas…</translation>
    </message>
    <message>
        <source>The batch could not be sent; see above.</source>
        <translation>Não foi possível enviar o lote; veja acima.</translation>
    </message>
    <message>
        <source>Sent: %1. Accepted: %2. Rejected: %3. Outcome unknown: %4.</source>
        <translation>Enviados: %1. Aceitos: %2. Rejeitados: %3. Resultado desconhecido: %4.</translation>
    </message>
    <message>
        <source>Not sent (stopped): %1.</source>
        <translation>Não enviados (interrompido): %1.</translation>
    </message>
    <message>
        <source>Rows already sent keep being followed in the payments list.</source>
        <translation>As linhas já enviadas continuam sendo acompanhadas na lista de pagamentos.</translation>
    </message>
</context>
<context>
    <name>PayoutReviewDialog</name>
    <message>
        <source>Review the Pix</source>
        <translation>Conferir o Pix</translation>
    </message>
    <message>
        <source>Amount to be sent</source>
        <translation>Valor a ser enviado</translation>
    </message>
    <message>
        <source>To confirm, type the amount to be sent (%1):</source>
        <translation>Para confirmar, digite o valor a ser enviado (%1):</translation>
    </message>
    <message>
        <source>Send Pix</source>
        <translation>Enviar Pix</translation>
    </message>
    <message>
        <source>Payee</source>
        <translation>Favorecido</translation>
    </message>
    <message>
        <source>Confirmed by the bank when paying</source>
        <translation>Confirmado pelo banco no pagamento</translation>
    </message>
    <message>
        <source>Pix key</source>
        <translation>Chave Pix</translation>
    </message>
    <message>
        <source>Payee&apos;s CPF/CNPJ</source>
        <translation>CPF/CNPJ do favorecido</translation>
    </message>
    <message>
        <source>Charge address</source>
        <translation>Endereço da cobrança</translation>
    </message>
    <message>
        <source>City</source>
        <translation>Cidade</translation>
    </message>
    <message>
        <source>Transaction id (txid)</source>
        <translation>Identificador da transação (txid)</translation>
    </message>
    <message>
        <source>None</source>
        <translation>Não informado</translation>
    </message>
    <message>
        <source>CPF/CNPJ</source>
        <translation>CPF/CNPJ</translation>
    </message>
    <message>
        <source>Bank account</source>
        <translation>Conta bancária</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Descrição</translation>
    </message>
    <message>
        <source>Flow</source>
        <translation>Fluxo</translation>
    </message>
    <message>
        <source>ISPB %1, branch %2, account %3 (%4)</source>
        <translation>ISPB %1, agência %2, conta %3 (%4)</translation>
    </message>
    <message>
        <source>Held for approval in the bank&apos;s console</source>
        <translation>Aguardando aprovação no console do banco</translation>
    </message>
    <message>
        <source>Instant</source>
        <translation>Imediato</translation>
    </message>
    <message>
        <source>This is not the amount to be sent.</source>
        <translation>Este não é o valor a ser enviado.</translation>
    </message>
</context>
<context>
    <name>PayoutsTab</name>
    <message>
        <source>By Pix key</source>
        <translation>Por chave Pix</translation>
    </message>
    <message>
        <source>By QR Code</source>
        <translation>Por QR Code</translation>
    </message>
    <message>
        <source>By bank data</source>
        <translation>Por dados bancários</translation>
    </message>
    <message>
        <source>Batch from CSV…</source>
        <translation>Lote por CSV…</translation>
    </message>
    <message>
        <source>Batches are not available in this version.</source>
        <translation>Os lotes não estão disponíveis nesta versão.</translation>
    </message>
    <message>
        <source>Payments</source>
        <translation>Pagamentos</translation>
    </message>
    <message>
        <source>Instant</source>
        <translation>Imediato</translation>
    </message>
    <message>
        <source>Held for approval in the bank&apos;s console</source>
        <translation>Aguardando aprovação no console do banco</translation>
    </message>
    <message>
        <source>Review…</source>
        <translation>Conferir…</translation>
    </message>
    <message>
        <source>Optional</source>
        <translation>Opcional</translation>
    </message>
    <message>
        <source>Optional: the key owner&apos;s CPF/CNPJ</source>
        <translation>Opcional: CPF/CNPJ do titular da chave</translation>
    </message>
    <message>
        <source>Pix key</source>
        <translation>Chave Pix</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Descrição</translation>
    </message>
    <message>
        <source>Payee&apos;s CPF/CNPJ</source>
        <translation>CPF/CNPJ do favorecido</translation>
    </message>
    <message>
        <source>Flow</source>
        <translation>Fluxo</translation>
    </message>
    <message>
        <source>Paste the Pix copia e cola code</source>
        <translation>Cole o código do Pix copia e cola</translation>
    </message>
    <message>
        <source>Open image…</source>
        <translation>Abrir imagem…</translation>
    </message>
    <message>
        <source>Read the code from a picture of the QR Code</source>
        <translation>Ler o código de uma imagem do QR Code</translation>
    </message>
    <message>
        <source>Pix copia e cola</source>
        <translation>Pix copia e cola</translation>
    </message>
    <message>
        <source>8 digits, e.g. 00000000</source>
        <translation>8 dígitos, ex.: 00000000</translation>
    </message>
    <message>
        <source>Without check digit</source>
        <translation>Sem dígito verificador</translation>
    </message>
    <message>
        <source>With check digit</source>
        <translation>Com dígito verificador</translation>
    </message>
    <message>
        <source>Checking (CACC)</source>
        <translation>Conta corrente (CACC)</translation>
    </message>
    <message>
        <source>Savings (SVGS)</source>
        <translation>Conta poupança (SVGS)</translation>
    </message>
    <message>
        <source>Salary (SLRY)</source>
        <translation>Conta salário (SLRY)</translation>
    </message>
    <message>
        <source>Payment account (TRAN)</source>
        <translation>Conta de pagamento (TRAN)</translation>
    </message>
    <message>
        <source>Holder&apos;s CPF/CNPJ</source>
        <translation>CPF/CNPJ do titular</translation>
    </message>
    <message>
        <source>Holder&apos;s name</source>
        <translation>Nome do titular</translation>
    </message>
    <message>
        <source>ISPB</source>
        <translation>ISPB</translation>
    </message>
    <message>
        <source>Branch</source>
        <translation>Agência</translation>
    </message>
    <message>
        <source>Account</source>
        <translation>Conta</translation>
    </message>
    <message>
        <source>Account type</source>
        <translation>Tipo de conta</translation>
    </message>
    <message>
        <source>CPF/CNPJ</source>
        <translation>CPF/CNPJ</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nome</translation>
    </message>
    <message>
        <source>The payments list is not available in this version.</source>
        <translation>A lista de pagamentos não está disponível nesta versão.</translation>
    </message>
    <message>
        <source>Open a QR Code image</source>
        <translation>Abrir uma imagem de QR Code</translation>
    </message>
    <message>
        <source>Images (*.png *.jpg *.jpeg *.bmp *.gif *.webp);;All files (*)</source>
        <translation>Imagens (*.png *.jpg *.jpeg *.bmp *.gif *.webp);;Todos os arquivos (*)</translation>
    </message>
    <message>
        <source>Could not read the QR Code</source>
        <translation>Não foi possível ler o QR Code</translation>
    </message>
    <message>
        <source>Invalid: %1</source>
        <translation>Inválido: %1</translation>
    </message>
    <message>
        <source>This code authorises a recurrence (Pix Automático); it is not a payment.</source>
        <translation>Este código autoriza uma recorrência (Pix Automático); não é um pagamento.</translation>
    </message>
    <message>
        <source>Payee: %1</source>
        <translation>Favorecido: %1</translation>
    </message>
    <message>
        <source>City: %1</source>
        <translation>Cidade: %1</translation>
    </message>
    <message>
        <source>Pix key: %1</source>
        <translation>Chave Pix: %1</translation>
    </message>
    <message>
        <source>Charge address: %1</source>
        <translation>Endereço da cobrança: %1</translation>
    </message>
    <message>
        <source>Amount: %1</source>
        <translation>Valor: %1</translation>
    </message>
    <message>
        <source>No amount in the code: type it below.</source>
        <translation>O código não tem valor: digite-o abaixo.</translation>
    </message>
    <message>
        <source>txid: %1</source>
        <translation>txid: %1</translation>
    </message>
    <message>
        <source>Dynamic code: the bank confirms payee and amount when paying.</source>
        <translation>Código dinâmico: o banco confirma o favorecido e o valor no pagamento.</translation>
    </message>
    <message>
        <source>Sending the Pix…</source>
        <translation>Enviando o Pix…</translation>
    </message>
    <message>
        <source>The Pix was not sent.</source>
        <translation>O Pix não foi enviado.</translation>
    </message>
    <message>
        <source>Refused</source>
        <translation>Recusado</translation>
    </message>
    <message>
        <source>Paid</source>
        <translation>Pago</translation>
    </message>
    <message>
        <source>Sent</source>
        <translation>Enviado</translation>
    </message>
    <message>
        <source>%1: %2 (%3 to %4)</source>
        <translation>%1: %2 (%3 para %4)</translation>
    </message>
</context>
<context>
    <name>PixKeyEdit</name>
    <message>
        <source>CPF, CNPJ, e-mail, phone (+55…) or random key</source>
        <translation>CPF, CNPJ, e-mail, celular (+55…) ou chave aleatória</translation>
    </message>
    <message>
        <source>CPF %1</source>
        <translation>CPF %1</translation>
    </message>
    <message>
        <source>CNPJ %1</source>
        <translation>CNPJ %1</translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation>E-mail</translation>
    </message>
    <message>
        <source>Phone</source>
        <translation>Celular</translation>
    </message>
    <message>
        <source>Random key (EVP)</source>
        <translation>Chave aleatória (EVP)</translation>
    </message>
</context>
<context>
    <name>ProfileDialog</name>
    <message>
        <source>New connection profile</source>
        <translation>Novo perfil de conexão</translation>
    </message>
    <message>
        <source>Edit profile</source>
        <translation>Editar perfil</translation>
    </message>
    <message>
        <source>For example: Main bank</source>
        <translation>Por exemplo: Banco principal</translation>
    </message>
    <message>
        <source>Production (real money)</source>
        <translation>Produção (dinheiro real)</translation>
    </message>
    <message>
        <source>Sandbox (test bank)</source>
        <translation>Sandbox (banco de testes)</translation>
    </message>
    <message>
        <source>Profile name</source>
        <translation>Nome do perfil</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>Ambiente</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Salvar</translation>
    </message>
    <message>
        <source>A profile with this name already exists.</source>
        <translation>Já existe um perfil com este nome.</translation>
    </message>
    <message>
        <source>Enter the client id the bank gave you.</source>
        <translation>Informe o client id fornecido pelo banco.</translation>
    </message>
    <message>
        <source>certificate (.pfx)</source>
        <translation>certificado (.pfx)</translation>
    </message>
    <message>
        <source>CA</source>
        <translation>CA</translation>
    </message>
    <message>
        <source>Enter the API&apos;s address (https://…).</source>
        <translation>Informe o endereço da API (https://…).</translation>
    </message>
    <message>
        <source>This is not a valid address.</source>
        <translation>Este endereço não é válido.</translation>
    </message>
    <message>
        <source>The address must start with https:// (the bank is reached over TLS).</source>
        <translation>O endereço deve começar com https:// (a conexão com o banco usa TLS).</translation>
    </message>
    <message>
        <source>The address cannot have a query (?…) or a fragment (#…).</source>
        <translation>O endereço não pode ter parâmetros de consulta (?…) nem fragmento (#…).</translation>
    </message>
    <message>
        <source>Choose the %1 file.</source>
        <translation>Escolha o arquivo de %1.</translation>
    </message>
    <message>
        <source>The file %1 does not exist.</source>
        <translation>O arquivo %1 não existe.</translation>
    </message>
    <message>
        <source>%1 fields need attention; the first: %2</source>
        <translation>%1 campos precisam de atenção; o primeiro: %2</translation>
    </message>
    <message>
        <source>QR Codes API</source>
        <translation>API de QR Codes</translation>
    </message>
    <message>
        <source>Accounts API</source>
        <translation>API de Contas</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>Endereço</translation>
    </message>
    <message>
        <source>Client id</source>
        <translation>Client id</translation>
    </message>
    <message>
        <source>Client secret</source>
        <translation>Client secret</translation>
    </message>
    <message>
        <source>Certificate (.pfx)</source>
        <translation>Certificado (.pfx)</translation>
    </message>
    <message>
        <source>Trust the bank&apos;s server by</source>
        <translation>Confiar no servidor do banco via</translation>
    </message>
    <message>
        <source>CA file</source>
        <translation>Arquivo de CA</translation>
    </message>
    <message>
        <source>Certificate of the %1</source>
        <translation>Certificado da %1</translation>
    </message>
    <message>
        <source>Certificate bundles (*.pfx *.p12);;All files (*)</source>
        <translation>Pacotes de certificado (*.pfx *.p12);;Todos os arquivos (*)</translation>
    </message>
    <message>
        <source>CA certificates of the bank</source>
        <translation>Certificados de CA do banco</translation>
    </message>
    <message>
        <source>PEM certificates (*.pem *.crt *.cer);;All files (*)</source>
        <translation>Certificados PEM (*.pem *.crt *.cer);;Todos os arquivos (*)</translation>
    </message>
    <message>
        <source>Kept in the system keyring (%1).</source>
        <translation>Guardado no chaveiro do sistema (%1).</translation>
    </message>
    <message>
        <source>Leave empty to keep the current secret</source>
        <translation>Deixe em branco para manter o client secret atual</translation>
    </message>
    <message>
        <source>There is no system keyring on this computer: the secret is not saved and will be asked at each unlock.</source>
        <translation>Não há chaveiro do sistema neste computador: o client secret não é salvo e será solicitado a cada desbloqueio.</translation>
    </message>
    <message>
        <source>A profile keeps its name: its ledger and secrets are filed under it.</source>
        <translation>O nome de um perfil não pode ser alterado: o registro de operações e as credenciais dele ficam guardados sob esse nome.</translation>
    </message>
</context>
<context>
    <name>ReceiptViewer</name>
    <message>
        <source>◀ Previous</source>
        <translation>◀ Anterior</translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation>Próxima ▶</translation>
    </message>
    <message>
        <source>Zoom out</source>
        <translation>Diminuir zoom</translation>
    </message>
    <message>
        <source>Zoom in</source>
        <translation>Aumentar zoom</translation>
    </message>
    <message>
        <source>Fit width</source>
        <translation>Ajustar à largura</translation>
    </message>
    <message>
        <source>Save as…</source>
        <translation>Salvar como…</translation>
    </message>
    <message>
        <source>Print…</source>
        <translation>Imprimir…</translation>
    </message>
    <message>
        <source>Open folder</source>
        <translation>Abrir pasta</translation>
    </message>
    <message>
        <source>This receipt is not in the local archive.</source>
        <translation>Este comprovante não está no arquivo local.</translation>
    </message>
    <message>
        <source>This receipt cannot be shown: the file is not a readable PDF (%1). You can still save it and open it in another program.</source>
        <translation>Não é possível exibir este comprovante: o arquivo não é um PDF legível (%1). Você ainda pode salvá-lo e abri-lo em outro programa.</translation>
    </message>
    <message>
        <source>Opening the receipt…</source>
        <translation>Abrindo o comprovante…</translation>
    </message>
    <message>
        <source>Page %1 of %2</source>
        <translation>Página %1 de %2</translation>
    </message>
    <message>
        <source>Save receipt</source>
        <translation>Salvar comprovante</translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <source>The receipt was not saved: %1</source>
        <translation>O comprovante não foi salvo: %1</translation>
    </message>
    <message>
        <source>Saved to %1.</source>
        <translation>Salvo em %1.</translation>
    </message>
    <message>
        <source>The printer could not be started.</source>
        <translation>Não foi possível iniciar a impressora.</translation>
    </message>
    <message>
        <source>Printing stopped: the printer refused a page.</source>
        <translation>A impressão foi interrompida: a impressora recusou uma página.</translation>
    </message>
    <message>
        <source>Sent to the printer.</source>
        <translation>Enviado para a impressora.</translation>
    </message>
    <message>
        <source>Receipt — %1</source>
        <translation>Comprovante — %1</translation>
    </message>
</context>
<context>
    <name>SettingsTab</name>
    <message>
        <source>Profile</source>
        <translation>Perfil</translation>
    </message>
    <message>
        <source>Certificates</source>
        <translation>Certificados</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nome</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>Ambiente</translation>
    </message>
    <message>
        <source>%1 API</source>
        <translation>API %1</translation>
    </message>
    <message>
        <source>valid until %1</source>
        <translation>válido até %1</translation>
    </message>
    <message>
        <source>Webhooks registered at the bank</source>
        <translation>Webhooks cadastrados no banco</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Pix key</source>
        <translation>Chave Pix</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>Endereço</translation>
    </message>
    <message>
        <source>Check webhooks</source>
        <translation>Consultar webhooks</translation>
    </message>
    <message>
        <source>Audit log (newest first)</source>
        <translation>Registro de auditoria (mais recentes primeiro)</translation>
    </message>
    <message>
        <source>When (UTC)</source>
        <translation>Data/hora (UTC)</translation>
    </message>
    <message>
        <source>User</source>
        <translation>Usuário</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Ação</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Resultado</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>Referência</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>(not registered)</source>
        <translation>(não cadastrado)</translation>
    </message>
</context>
<context>
    <name>StatementModel</name>
    <message>
        <source>Date</source>
        <translation>Data</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Descrição</translation>
    </message>
    <message>
        <source>Counterparty</source>
        <translation>Contraparte</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Credit/debit</source>
        <translation>Crédito/débito</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>Pix</source>
        <translation>Pix</translation>
    </message>
    <message>
        <source>TED</source>
        <translation>TED</translation>
    </message>
    <message>
        <source>Boleto</source>
        <translation>Boleto</translation>
    </message>
    <message>
        <source>Fee</source>
        <translation>Tarifa</translation>
    </message>
    <message>
        <source>Refund</source>
        <translation>Devolução</translation>
    </message>
    <message>
        <source>Credit</source>
        <translation>Crédito</translation>
    </message>
    <message>
        <source>Debit</source>
        <translation>Débito</translation>
    </message>
</context>
<context>
    <name>StatementTab</name>
    <message>
        <source>From</source>
        <translation>De</translation>
    </message>
    <message>
        <source>to</source>
        <translation>até</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>Exportar CSV…</translation>
    </message>
    <message>
        <source>Save the entries shown, in their order, as CSV</source>
        <translation>Salvar os lançamentos exibidos, na ordem atual, em CSV</translation>
    </message>
    <message>
        <source>Search description or counterparty</source>
        <translation>Buscar por descrição ou contraparte</translation>
    </message>
    <message>
        <source>Credits and debits</source>
        <translation>Créditos e débitos</translation>
    </message>
    <message>
        <source>Credits only</source>
        <translation>Somente créditos</translation>
    </message>
    <message>
        <source>Debits only</source>
        <translation>Somente débitos</translation>
    </message>
    <message>
        <source>Minimum R$</source>
        <translation>Mínimo R$</translation>
    </message>
    <message>
        <source>Maximum R$</source>
        <translation>Máximo R$</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>Entry details</source>
        <translation>Detalhes do lançamento</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>Data</translation>
    </message>
    <message>
        <source>Credit/debit</source>
        <translation>Crédito/débito</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Balance after</source>
        <translation>Saldo após</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Descrição</translation>
    </message>
    <message>
        <source>Counterparty</source>
        <translation>Contraparte</translation>
    </message>
    <message>
        <source>CPF/CNPJ</source>
        <translation>CPF/CNPJ</translation>
    </message>
    <message>
        <source>Bank (ISPB)</source>
        <translation>Banco (ISPB)</translation>
    </message>
    <message>
        <source>End-to-end id</source>
        <translation>ID fim a fim</translation>
    </message>
    <message>
        <source>txid</source>
        <translation>txid</translation>
    </message>
    <message>
        <source>Entry id</source>
        <translation>ID do lançamento</translation>
    </message>
    <message>
        <source>Save receipt…</source>
        <translation>Salvar comprovante…</translation>
    </message>
    <message>
        <source>View receipt…</source>
        <translation>Ver comprovante…</translation>
    </message>
    <message>
        <source>Select an entry to see its details.</source>
        <translation>Selecione um lançamento para ver os detalhes.</translation>
    </message>
    <message>
        <source>Loading entries…</source>
        <translation>Carregando lançamentos…</translation>
    </message>
    <message>
        <source>The statement could not be loaded completely.</source>
        <translation>Não foi possível carregar o extrato completo.</translation>
    </message>
    <message>
        <source>Loading was interrupted; press Refresh to load the rest.</source>
        <translation>O carregamento foi interrompido; clique em Atualizar para carregar o restante.</translation>
    </message>
    <message>
        <source>All %1 entries of the period loaded.</source>
        <translation>Todos os %1 lançamentos do período foram carregados.</translation>
    </message>
    <message>
        <source>%1 entries loaded; scroll down for more.</source>
        <translation>%1 lançamentos carregados; role para baixo para ver mais.</translation>
    </message>
    <message>
        <source>Showing %1.</source>
        <translation>Exibindo %1.</translation>
    </message>
    <message>
        <source>Looking for the receipt…</source>
        <translation>Buscando o comprovante…</translation>
    </message>
    <message>
        <source>The bank has no receipt for this payment (yet).</source>
        <translation>O banco (ainda) não tem comprovante deste pagamento.</translation>
    </message>
    <message>
        <source>Debit (money out)</source>
        <translation>Débito (saída)</translation>
    </message>
    <message>
        <source>Credit (money in)</source>
        <translation>Crédito (entrada)</translation>
    </message>
    <message>
        <source>Receipt</source>
        <translation>Comprovante</translation>
    </message>
    <message>
        <source>Save receipt</source>
        <translation>Salvar comprovante</translation>
    </message>
    <message>
        <source>PDF files (*.pdf)</source>
        <translation>Arquivos PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Could not save the receipt</source>
        <translation>Não foi possível salvar o comprovante</translation>
    </message>
    <message>
        <source>Receipt saved to %1</source>
        <translation>Comprovante salvo em %1</translation>
    </message>
    <message>
        <source>Export statement</source>
        <translation>Exportar extrato</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>Arquivos CSV (*.csv)</translation>
    </message>
    <message>
        <source>The export was interrupted</source>
        <translation>A exportação foi interrompida</translation>
    </message>
    <message>
        <source>Nothing was written.</source>
        <translation>Nada foi gravado.</translation>
    </message>
    <message>
        <source>Could not write the file</source>
        <translation>Não foi possível gravar o arquivo</translation>
    </message>
    <message>
        <source>%1 entries exported to %2</source>
        <translation>%1 lançamentos exportados para %2</translation>
    </message>
</context>
<context>
    <name>UnlockDialog</name>
    <message>
        <source>Unlock %1</source>
        <translation>Desbloquear %1</translation>
    </message>
    <message>
        <source>Same password for both certificates</source>
        <translation>Mesma senha para os dois certificados</translation>
    </message>
    <message>
        <source>Unlock</source>
        <translation>Desbloquear</translation>
    </message>
    <message>
        <source>Opening the certificates…</source>
        <translation>Abrindo os certificados…</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>Continuar</translation>
    </message>
    <message>
        <source>Enter the password of the %1 certificate.</source>
        <translation>Informe a senha do certificado da %1.</translation>
    </message>
    <message>
        <source>Enter the client secret of the %1.</source>
        <translation>Informe o client secret da %1.</translation>
    </message>
    <message>
        <source>Wrong password: it opens neither certificate. Type it again.</source>
        <translation>Senha incorreta: ela não abre nenhum dos certificados. Digite-a novamente.</translation>
    </message>
    <message>
        <source>The password opens one certificate but not the %1 one. If they have different passwords, untick “Same password for both certificates”.</source>
        <translation>A senha abre um dos certificados, mas não o da %1. Se eles tiverem senhas diferentes, desmarque “Mesma senha para os dois certificados”.</translation>
    </message>
    <message>
        <source>Wrong password for the %1 certificate: type it again.</source>
        <translation>Senha incorreta para o certificado da %1: digite-a novamente.</translation>
    </message>
    <message>
        <source>Subject: %1
Valid until %2</source>
        <translation>Titular: %1
Válido até %2</translation>
    </message>
    <message>
        <source>Subject: %1
Expired on %2</source>
        <translation>Titular: %1
Expirou em %2</translation>
    </message>
    <message>
        <source>Subject: %1
Valid from %2</source>
        <translation>Titular: %1
Válido a partir de %2</translation>
    </message>
    <message>
        <source>Password of both certificates</source>
        <translation>Senha dos dois certificados</translation>
    </message>
    <message>
        <source>Certificate password</source>
        <translation>Senha do certificado</translation>
    </message>
    <message>
        <source>QR Codes API</source>
        <translation>API de QR Codes</translation>
    </message>
    <message>
        <source>Accounts API</source>
        <translation>API de Contas</translation>
    </message>
    <message>
        <source>Profile “%1” (sandbox: a test bank on this computer, no real money). Enter the passwords of its certificates.</source>
        <translation>Perfil “%1” (sandbox: um banco de testes neste computador, sem dinheiro real). Informe as senhas dos certificados dele.</translation>
    </message>
    <message>
        <source>Profile “%1”. Enter the passwords of its certificates; they are not stored and are asked each time.</source>
        <translation>Perfil “%1”. Informe as senhas dos certificados dele; elas não são armazenadas e são solicitadas a cada vez.</translation>
    </message>
    <message>
        <source>Certificate file</source>
        <translation>Arquivo do certificado</translation>
    </message>
    <message>
        <source>Not kept in the system keyring: used for this session only.</source>
        <translation>Não guardado no chaveiro do sistema: usado somente nesta sessão.</translation>
    </message>
    <message>
        <source>Client secret</source>
        <translation>Client secret</translation>
    </message>
    <message>
        <source>The sandbox&apos;s test password: “%1”</source>
        <translation>Senha de teste do sandbox: “%1”</translation>
    </message>
    <message>
        <source>The sandbox&apos;s test passwords: %1</source>
        <translation>Senhas de teste do sandbox: %1</translation>
    </message>
    <message>
        <source>Fill in</source>
        <translation>Preencher</translation>
    </message>
</context>
<context>
    <name>WelcomeDialog</name>
    <message>
        <source>Welcome to Treasury</source>
        <translation>Boas-vindas à Tesouraria</translation>
    </message>
    <message>
        <source>Welcome! How do you want to start?</source>
        <translation>Boas-vindas! Como você quer começar?</translation>
    </message>
    <message>
        <source>Treasury shows your company&apos;s balance and statement, sends Pix payouts, pays boletos and issues charges through your bank&apos;s APIs.</source>
        <translation>A Tesouraria mostra o saldo e o extrato da sua empresa, envia pagamentos Pix, paga boletos e emite cobranças pelas APIs do seu banco.</translation>
    </message>
    <message>
        <source>Try with the sandbox bank</source>
        <translation>Experimentar com o banco sandbox</translation>
    </message>
    <message>
        <source>A test bank that runs on this computer only. No real money moves and nothing leaves this computer: explore every feature safely. You can connect to your bank later.</source>
        <translation>Um banco de testes que roda somente neste computador. Nenhum dinheiro real é movimentado e nada sai deste computador: explore todos os recursos com segurança. Você pode se conectar ao seu banco depois.</translation>
    </message>
    <message>
        <source>Connect to my bank</source>
        <translation>Conectar ao meu banco</translation>
    </message>
    <message>
        <source>You need what your bank gave you for its APIs: the addresses, a client id and secret, and a certificate file (.pfx) for each API.</source>
        <translation>Você vai precisar do que o seu banco forneceu para as APIs dele: os endereços, o client id e o client secret, e um arquivo de certificado (.pfx) para cada API.</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Sair</translation>
    </message>
</context>
<context>
    <name>dialog</name>
    <message>
        <source>Browse…</source>
        <translation>Procurar…</translation>
    </message>
    <message>
        <source>Operating system</source>
        <translation>Sistema operacional</translation>
    </message>
    <message>
        <source>A CA file</source>
        <translation>Um arquivo de CA</translation>
    </message>
</context>
</TS>
