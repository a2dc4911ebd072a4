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
        <source>not connected</source>
        <translation>não conectada</translation>
    </message>
    <message>
        <source>connected</source>
        <translation>conectada</translation>
    </message>
    <message>
        <source>· cert. %1 d</source>
        <translation>· cert. %1 d</translation>
    </message>
    <message>
        <source>Token valid until %1</source>
        <translation>Token válido até %1</translation>
    </message>
    <message>
        <source>No token yet</source>
        <translation>Ainda sem token</translation>
    </message>
    <message>
        <source>Certificate valid until %1 (%2 days)</source>
        <translation>Certificado válido até %1 (%2 dias)</translation>
    </message>
</context>
<context>
    <name>AppController</name>
    <message>
        <source>The sandbox bank is turned off</source>
        <translation>O banco sandbox está desativado</translation>
    </message>
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
        <source>The bank&apos;s CA cannot be checked</source>
        <translation>Não é possível conferir a CA do banco</translation>
    </message>
    <message>
        <source>%1
The profile stays locked: nothing is sent to a bank whose CA cannot be shown to you first. Put the CA file back in place and open the profile again.</source>
        <translation>%1
O perfil continua bloqueado: nada é enviado a um banco cuja CA não pode ser mostrada antes a você. Coloque o arquivo de CA de volta no lugar e abra o perfil de novo.</translation>
    </message>
    <message>
        <source>The ledger cannot be kept on a network folder (%1): SQLite&apos;s write-ahead log does not work there. Keep the data folder on this computer; to share a journal, use the team database.</source>
        <translation>O livro-razão não pode ficar numa pasta de rede (%1): o registro de escrita antecipada (WAL) do SQLite não funciona ali. Mantenha a pasta de dados neste computador; para compartilhar um registro, use o banco de dados da equipe.</translation>
    </message>
    <message>
        <source>Unlocked · %1 pending checked</source>
        <translation>Desbloqueado · %1 pendente(s) verificado(s)</translation>
    </message>
    <message>
        <source>Unlocked</source>
        <translation>Desbloqueado</translation>
    </message>
    <message>
        <source>The sandbox bank stopped</source>
        <translation>O banco sandbox parou</translation>
    </message>
    <message>
        <source>The sandbox bank that runs inside the app is not running any more (its log: %1). Nothing can be sent or followed until it runs again. Start it again now? You will unlock the profile again; payments on their way are checked with it.</source>
        <translation>O banco sandbox que roda dentro do aplicativo não está mais em execução (seu log: %1). Nada pode ser enviado nem acompanhado até que ele volte a rodar. Iniciá-lo de novo agora? Você desbloqueará o perfil outra vez; os pagamentos a caminho são conferidos com ele.</translation>
    </message>
    <message>
        <source>Restart the sandbox bank</source>
        <translation>Reiniciar o banco sandbox</translation>
    </message>
    <message>
        <source>Not now</source>
        <translation>Agora não</translation>
    </message>
    <message>
        <source>The sandbox bank is not running: lock and unlock to start it again.</source>
        <translation>O banco sandbox não está rodando: bloqueie e desbloqueie para iniciá-lo de novo.</translation>
    </message>
    <message>
        <source>Profile saved; the changes apply at the next unlock.</source>
        <translation>Perfil salvo; as alterações valem a partir do próximo desbloqueio.</translation>
    </message>
</context>
<context>
    <name>ApprovalDialog</name>
    <message>
        <source>Refused by the team database</source>
        <translation>Recusado pelo banco de dados da equipe</translation>
    </message>
    <message>
        <source>The team database cannot be reached</source>
        <translation>Não é possível acessar o banco de dados da equipe</translation>
    </message>
    <message>
        <source>The same payment waits for approval already</source>
        <translation>O mesmo pagamento já aguarda aprovação</translation>
    </message>
    <message>
        <source>The bank did not take it</source>
        <translation>O banco não o aceitou</translation>
    </message>
    <message>
        <source>Please check</source>
        <translation>Verifique</translation>
    </message>
    <message>
        <source>%1 prepared the same payee and amount on %2 (intent #%3), still waiting for approval. A deliberate second payment needs a different description.</source>
        <translation>%1 preparou o mesmo favorecido e valor em %2 (intenção nº %3), ainda aguardando aprovação. Um segundo pagamento intencional precisa de uma descrição diferente.</translation>
    </message>
    <message>
        <source>The payment</source>
        <translation>O pagamento</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Payee</source>
        <translation>Favorecido</translation>
    </message>
    <message>
        <source>CPF/CNPJ</source>
        <translation>CPF/CNPJ</translation>
    </message>
    <message>
        <source>Pays to</source>
        <translation>Paga a</translation>
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
        <source>Batch</source>
        <translation>Lote</translation>
    </message>
    <message>
        <source>Prepared by</source>
        <translation>Preparado por</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Situação</translation>
    </message>
    <message>
        <source>Approvals</source>
        <translation>Aprovações</translation>
    </message>
    <message>
        <source>Given so far</source>
        <translation>Dadas até agora</translation>
    </message>
    <message>
        <source>Needed</source>
        <translation>Necessárias</translation>
    </message>
    <message>
        <source>Policy</source>
        <translation>Política</translation>
    </message>
    <message>
        <source>Expiry</source>
        <translation>Validade</translation>
    </message>
    <message>
        <source>Who can approve it</source>
        <translation>Quem pode aprová-lo</translation>
    </message>
    <message>
        <source>As it will be sent to the bank</source>
        <translation>Como será enviado ao banco</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>Campo</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>The QR Code, decoded</source>
        <translation>O QR Code, decodificado</translation>
    </message>
    <message>
        <source>Your team database password, to approve:</source>
        <translation>Sua senha do banco de dados da equipe, para aprovar:</translation>
    </message>
    <message>
        <source>To approve, type the amount to be sent (%1):</source>
        <translation>Para aprovar, digite o valor a ser enviado (%1):</translation>
    </message>
    <message>
        <source>This is not the amount to be sent.</source>
        <translation>Este não é o valor a ser enviado.</translation>
    </message>
    <message>
        <source>Approve</source>
        <translation>Aprovar</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fechar</translation>
    </message>
    <message>
        <source>Reject…</source>
        <translation>Rejeitar…</translation>
    </message>
    <message>
        <source>Withdraw…</source>
        <translation>Retirar…</translation>
    </message>
    <message>
        <source>Edit amount or description…</source>
        <translation>Editar valor ou descrição…</translation>
    </message>
    <message>
        <source>Your payment, waiting for approval</source>
        <translation>Seu pagamento, aguardando aprovação</translation>
    </message>
    <message>
        <source>Approve a payment</source>
        <translation>Aprovar um pagamento</translation>
    </message>
    <message>
        <source>Not given</source>
        <translation>Não dada</translation>
    </message>
    <message>
        <source>None</source>
        <translation>Nenhum</translation>
    </message>
    <message>
        <source>None (a payment of its own)</source>
        <translation>Nenhum (um pagamento avulso)</translation>
    </message>
    <message>
        <source>%1 on %2 (Brasília)</source>
        <translation>%1 em %2 (Brasília)</translation>
    </message>
    <message>
        <source>⚠ This payee was paid recently: %1 on %2 by %3 (%4). Check that this is not the same payment twice.</source>
        <translation>⚠ Este favorecido foi pago recentemente: %1 em %2 por %3 (%4). Verifique se não é o mesmo pagamento duas vezes.</translation>
    </message>
    <message>
        <source>%1 payment(s) to this payee lately in all.</source>
        <translation>%1 pagamento(s) a este favorecido recentemente, no total.</translation>
    </message>
    <message>
        <source>New payee: never paid from this account before. It needs %1 approval(s) more than the amount alone would.</source>
        <translation>Novo favorecido: nunca pago a partir desta conta. Ele precisa de %1 aprovação(ões) a mais do que o valor sozinho exigiria.</translation>
    </message>
    <message>
        <source>New payee: never paid from this account before.</source>
        <translation>Novo favorecido: nunca pago a partir desta conta.</translation>
    </message>
    <message>
        <source>One approval more: %1</source>
        <translation>Uma aprovação a mais: %1</translation>
    </message>
    <message>
        <source>Content fingerprint (SHA-256): %1. An approval holds for this content only.</source>
        <translation>Impressão digital do conteúdo (SHA-256): %1. Uma aprovação vale somente para este conteúdo.</translation>
    </message>
    <message>
        <source>City</source>
        <translation>Cidade</translation>
    </message>
    <message>
        <source>Pix key</source>
        <translation>Chave Pix</translation>
    </message>
    <message>
        <source>Charge address</source>
        <translation>Endereço da cobrança</translation>
    </message>
    <message>
        <source>Transaction id (txid)</source>
        <translation>Identificador da transação (txid)</translation>
    </message>
    <message>
        <source>Amount in the code</source>
        <translation>Valor no código</translation>
    </message>
    <message>
        <source>Pix by key</source>
        <translation>Pix por chave</translation>
    </message>
    <message>
        <source>Pix by QR Code</source>
        <translation>Pix por QR Code</translation>
    </message>
    <message>
        <source>Pix by bank data</source>
        <translation>Pix por dados bancários</translation>
    </message>
    <message>
        <source>Slip (boleto)</source>
        <translation>Boleto</translation>
    </message>
    <message>
        <source>Confirmed by the bank when paying</source>
        <translation>Confirmado pelo banco no pagamento</translation>
    </message>
    <message>
        <source>Held for approval in the bank&apos;s console too (after its release from here)</source>
        <translation>Retido para aprovação também no console do banco (após ser liberado daqui)</translation>
    </message>
    <message>
        <source>Instant, once released</source>
        <translation>Instantâneo, depois de liberado</translation>
    </message>
    <message>
        <source>None yet.</source>
        <translation>Nenhuma ainda.</translation>
    </message>
    <message>
        <source>✓ %1 on %2</source>
        <translation>✓ %1 em %2</translation>
    </message>
    <message>
        <source>✗ %1 on %2 — void: %3</source>
        <translation>✗ %1 em %2 — anulada: %3</translation>
    </message>
    <message>
        <source>no longer valid</source>
        <translation>não é mais válida</translation>
    </message>
    <message>
        <source>%1 of %2 given</source>
        <translation>%1 de %2 dadas</translation>
    </message>
    <message>
        <source>(%1 more for a new payee)</source>
        <translation>(%1 a mais para um novo favorecido)</translation>
    </message>
    <message>
        <source>The policy this payment was prepared under cannot be read.</source>
        <translation>Não é possível ler a política sob a qual este pagamento foi preparado.</translation>
    </message>
    <message>
        <source>Payments up to %1 need %2 approval(s); above it, %3.</source>
        <translation>Pagamentos até %1 precisam de %2 aprovação(ões); acima disso, %3.</translation>
    </message>
    <message>
        <source>Every payment needs %1 approval(s).</source>
        <translation>Todo pagamento precisa de %1 aprovação(ões).</translation>
    </message>
    <message>
        <source>A payee never paid before needs %1 more.</source>
        <translation>Um favorecido nunca pago antes precisa de mais %1.</translation>
    </message>
    <message>
        <source>Approvers are other people than the maker.</source>
        <translation>Os aprovadores são pessoas diferentes de quem preparou.</translation>
    </message>
    <message>
        <source>Policy version %1, set by %2 on %3.</source>
        <translation>Política versão %1, definida por %2 em %3.</translation>
    </message>
    <message>
        <source>The approvals given expire on %1 (Brasília).</source>
        <translation>As aprovações dadas expiram em %1 (Brasília).</translation>
    </message>
    <message>
        <source>Approvals expire at the end of the Brasília business day of the first one.</source>
        <translation>As aprovações expiram no fim do dia útil de Brasília da primeira delas.</translation>
    </message>
    <message>
        <source>Approvals expire %1 hour(s) after the first one.</source>
        <translation>As aprovações expiram %1 hora(s) após a primeira.</translation>
    </message>
    <message>
        <source>It needs %1 more approval(s) and only %2 approver(s) can give one: the team needs more approvers, or higher limits.</source>
        <translation>Faltam %1 aprovação(ões) e só %2 aprovador(es) pode(m) dar uma: a equipe precisa de mais aprovadores, ou de limites maiores.</translation>
    </message>
    <message>
        <source>Nobody: the team has no approver other than the one who prepared it</source>
        <translation>Ninguém: a equipe não tem outro aprovador além de quem o preparou</translation>
    </message>
    <message>
        <source>Nobody else: every other approver has approved it already</source>
        <translation>Ninguém mais: todos os outros aprovadores já o aprovaram</translation>
    </message>
    <message>
        <source>Nobody: the limits of %1 do not cover it</source>
        <translation>Ninguém: os limites de %1 não o cobrem</translation>
    </message>
    <message>
        <source>Nobody: the approvers&apos; limits do not cover it</source>
        <translation>Ninguém: os limites dos aprovadores não o cobrem</translation>
    </message>
    <message>
        <source>Nobody</source>
        <translation>Ninguém</translation>
    </message>
    <message>
        <source>Withdraw this payment? It will not be sent. Why is it withdrawn?</source>
        <translation>Retirar este pagamento? Ele não será enviado. Por que ele é retirado?</translation>
    </message>
    <message>
        <source>A withdrawal needs a reason.</source>
        <translation>Uma retirada precisa de um motivo.</translation>
    </message>
    <message>
        <source>Your limits do not cover this payment: the team database will refuse your approval.</source>
        <translation>Seus limites não cobrem este pagamento: o banco de dados da equipe recusará sua aprovação.</translation>
    </message>
    <message>
        <source>Not done: %1</source>
        <translation>Não realizado: %1</translation>
    </message>
    <message>
        <source>Type your team database password first.</source>
        <translation>Digite primeiro sua senha do banco de dados da equipe.</translation>
    </message>
    <message>
        <source>Approving…</source>
        <translation>Aprovando…</translation>
    </message>
    <message>
        <source>Approved and sent: %1 (%2 to %3).</source>
        <translation>Aprovado e enviado: %1 (%2 para %3).</translation>
    </message>
    <message>
        <source>Your approval is recorded (%1 of %2): it waits for %3 more.</source>
        <translation>Sua aprovação foi registrada (%1 de %2): ele aguarda mais %3.</translation>
    </message>
    <message>
        <source>Approved: every approval is given; the releasing desktop sends it.</source>
        <translation>Aprovado: todas as aprovações foram dadas; o computador que libera o envia.</translation>
    </message>
    <message>
        <source>Reject the payment</source>
        <translation>Rejeitar o pagamento</translation>
    </message>
    <message>
        <source>Why is it rejected? %1 sees your reason; it will not be sent.</source>
        <translation>Por que ele é rejeitado? %1 verá seu motivo; ele não será enviado.</translation>
    </message>
    <message>
        <source>A rejection needs a reason.</source>
        <translation>Uma rejeição precisa de um motivo.</translation>
    </message>
    <message>
        <source>Rejecting…</source>
        <translation>Rejeitando…</translation>
    </message>
    <message>
        <source>Rejected: %1. It will not be sent.</source>
        <translation>Rejeitado: %1. Ele não será enviado.</translation>
    </message>
    <message>
        <source>Withdraw the payment</source>
        <translation>Retirar o pagamento</translation>
    </message>
    <message>
        <source>Withdrawing…</source>
        <translation>Retirando…</translation>
    </message>
    <message>
        <source>Withdrawn: it will not be sent.</source>
        <translation>Retirado: ele não será enviado.</translation>
    </message>
    <message>
        <source>Change the payment</source>
        <translation>Alterar o pagamento</translation>
    </message>
    <message>
        <source>A change voids the approvals given so far: it is approved again.</source>
        <translation>Uma alteração anula as aprovações dadas até agora: ele é aprovado novamente.</translation>
    </message>
    <message>
        <source>Type a valid amount.</source>
        <translation>Digite um valor válido.</translation>
    </message>
    <message>
        <source>Changing…</source>
        <translation>Alterando…</translation>
    </message>
    <message>
        <source>Changed to %1: the approvals given before are void (%2).</source>
        <translation>Alterado para %1: as aprovações dadas antes foram anuladas (%2).</translation>
    </message>
</context>
<context>
    <name>ApprovalsModel</name>
    <message>
        <source>Payee</source>
        <translation>Favorecido</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>Prepared by</source>
        <translation>Preparado por</translation>
    </message>
    <message>
        <source>Approvals</source>
        <translation>Aprovações</translation>
    </message>
    <message>
        <source>Age</source>
        <translation>Idade</translation>
    </message>
    <message>
        <source>Approvals expire</source>
        <translation>Aprovações expiram</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Situação</translation>
    </message>
    <message>
        <source>Slip %1</source>
        <translation>Boleto %1</translation>
    </message>
    <message>
        <source>%1 d</source>
        <translation>%1 d</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>expired %1</source>
        <translation>expirou %1</translation>
    </message>
    <message>
        <source>A new payee: one approval more than the amount alone needs.</source>
        <translation>Um novo favorecido: uma aprovação a mais do que o valor sozinho exige.</translation>
    </message>
</context>
<context>
    <name>ApprovalsTab</name>
    <message>
        <source>Open…</source>
        <translation>Abrir…</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Atualizar</translation>
    </message>
    <message>
        <source>Waiting for my approval</source>
        <translation>Aguardando minha aprovação</translation>
    </message>
    <message>
        <source>Prepared by me</source>
        <translation>Preparados por mim</translation>
    </message>
    <message>
        <source>Recently decided</source>
        <translation>Decididos recentemente</translation>
    </message>
    <message>
        <source>prepares payments</source>
        <translation>prepara pagamentos</translation>
    </message>
    <message>
        <source>approves payments</source>
        <translation>aprova pagamentos</translation>
    </message>
    <message>
        <source>views only</source>
        <translation>apenas visualiza</translation>
    </message>
    <message>
        <source>Signed in to the team database as %1, who %2.</source>
        <translation>Conectado ao banco de dados da equipe como %1, que %2.</translation>
    </message>
    <message>
        <source> and </source>
        <translation> e </translation>
    </message>
    <message>
        <source>The team database cannot be reached</source>
        <translation>Não é possível acessar o banco de dados da equipe</translation>
    </message>
</context>
<context>
    <name>AuditPanel</name>
    <message>
        <source>From</source>
        <translation>De</translation>
    </message>
    <message>
        <source>Search reference, user, outcome, details</source>
        <translation>Buscar referência, usuário, resultado, detalhes</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Exportar…</translation>
    </message>
    <message>
        <source>to</source>
        <translation>a</translation>
    </message>
    <message>
        <source>When (Brasília)</source>
        <translation>Quando (Brasília)</translation>
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
        <source>◀ Newer</source>
        <translation>◀ Mais recentes</translation>
    </message>
    <message>
        <source>Older ▶</source>
        <translation>Mais antigos ▶</translation>
    </message>
    <message>
        <source>All actions</source>
        <translation>Todas as ações</translation>
    </message>
    <message>
        <source>%1–%2 of %3</source>
        <translation>%1–%2 de %3</translation>
    </message>
    <message>
        <source>Export the audit log</source>
        <translation>Exportar o registro de auditoria</translation>
    </message>
    <message>
        <source>Exported</source>
        <translation>Exportado</translation>
    </message>
    <message>
        <source>%1 row(s) saved to %2</source>
        <translation>%1 linha(s) salva(s) em %2</translation>
    </message>
</context>
<context>
    <name>BackupPanel</name>
    <message>
        <source>Backups</source>
        <translation>Cópias de segurança</translation>
    </message>
    <message>
        <source>e.g. \\server\share\treasury-backups</source>
        <translation>ex.: \\servidor\compartilhamento\copias-tesouraria</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>Escolher…</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>Pasta</translation>
    </message>
    <message>
        <source> days</source>
        <translation> dias</translation>
    </message>
    <message>
        <source>Keep</source>
        <translation>Manter por</translation>
    </message>
    <message>
        <source>Set by your organisation&apos;s policy: it cannot be changed here.</source>
        <translation>Definido pela política da sua organização: não pode ser alterado aqui.</translation>
    </message>
    <message>
        <source>Back up now</source>
        <translation>Fazer cópia agora</translation>
    </message>
    <message>
        <source>Restore…</source>
        <translation>Restaurar…</translation>
    </message>
    <message>
        <source>Last backup</source>
        <translation>Última cópia</translation>
    </message>
    <message>
        <source>This profile&apos;s record is the team database (PostgreSQL): it is the real record of a shared desk, backed up by its administrator. Backups here hold only this desktop&apos;s local cache (the receipts it keeps).</source>
        <translation>O registro deste perfil é o banco de dados da equipe (PostgreSQL): ele é o registro de verdade de uma mesa compartilhada, e a cópia de segurança dele é feita pelo administrador. As cópias feitas aqui guardam só o cache local deste computador (os comprovantes que ele mantém).</translation>
    </message>
    <message>
        <source>Copies of this profile&apos;s ledger (payments, audit) and receipts, made every day and when the app closes, and kept for the days below. Choose another disk or a network share, not this computer: a reimaged PC loses its own disk. For a desk several people share, the team database is the real answer.</source>
        <translation>Cópias do registro de operações deste perfil (pagamentos, auditoria) e dos comprovantes, feitas todo dia e ao fechar o aplicativo, e mantidas pelos dias abaixo. Escolha outro disco ou uma pasta de rede, não este computador: um PC reinstalado perde o próprio disco. Para uma mesa que várias pessoas compartilham, a resposta de verdade é o banco de dados da equipe.</translation>
    </message>
    <message>
        <source>Folder for the backups</source>
        <translation>Pasta das cópias de segurança</translation>
    </message>
    <message>
        <source>Backing up…</source>
        <translation>Fazendo a cópia de segurança…</translation>
    </message>
    <message>
        <source>No backup was made: %1</source>
        <translation>Nenhuma cópia foi feita: %1</translation>
    </message>
    <message>
        <source>Backed up at %1: %2 payments, %3 receipts, in %4</source>
        <translation>Cópia feita em %1: %2 pagamentos, %3 comprovantes, em %4</translation>
    </message>
    <message>
        <source>none in this folder</source>
        <translation>nenhuma nesta pasta</translation>
    </message>
    <message>
        <source>No folder chosen: automatic backups are off.</source>
        <translation>Nenhuma pasta escolhida: as cópias automáticas estão desligadas.</translation>
    </message>
    <message>
        <source>Restored the backup of %1: %2 payments, %3 receipts. The data it replaced is kept in %4.</source>
        <translation>Cópia de %1 restaurada: %2 pagamentos, %3 comprovantes. Os dados substituídos estão guardados em %4.</translation>
    </message>
</context>
<context>
    <name>BackupRunner</name>
    <message>
        <source>Waiting for the backup under way before closing (at most %1 s; Quit again to close now)…</source>
        <translation>Aguardando a cópia de segurança em andamento antes de fechar (no máximo %1 s; Sair de novo fecha agora)…</translation>
    </message>
    <message>
        <source>Backing up before closing (at most %1 s; Quit again to close now)…</source>
        <translation>Fazendo a cópia de segurança antes de fechar (no máximo %1 s; Sair de novo fecha agora)…</translation>
    </message>
    <message>
        <source>Closing without a backup: %1</source>
        <translation>Fechando sem cópia de segurança: %1</translation>
    </message>
    <message>
        <source>The backup was abandoned so that the app could close; none was left half made.</source>
        <translation>A cópia de segurança foi abandonada para o aplicativo fechar; nenhuma ficou pela metade.</translation>
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
    <name>BankNames</name>
    <message>
        <source>%1 (code %2, ISPB %3)</source>
        <translation>%1 (código %2, ISPB %3)</translation>
    </message>
    <message>
        <source>%1 (ISPB %2)</source>
        <translation>%1 (ISPB %2)</translation>
    </message>
    <message>
        <source>ISPB %1 (not in the bank list of %2, which may be out of date)</source>
        <translation>ISPB %1 (fora da lista de bancos de %2, que pode estar desatualizada)</translation>
    </message>
    <message>
        <source>ISPB %1 (no bank list to name it)</source>
        <translation>ISPB %1 (sem lista de bancos para dar o nome)</translation>
    </message>
    <message>
        <source>%1, branch %2, account %3</source>
        <translation>%1, agência %2, conta %3</translation>
    </message>
    <message>
        <source>%1 · code %2 · ISPB %3</source>
        <translation>%1 · código %2 · ISPB %3</translation>
    </message>
    <message>
        <source>%1 · ISPB %2</source>
        <translation>%1 · ISPB %2</translation>
    </message>
    <message>
        <source>Pick the bank from the list for its ISPB (%1 found)</source>
        <translation>Escolha o banco na lista para preencher o ISPB (%1 encontrado(s))</translation>
    </message>
    <message>
        <source>No bank of the list of %1 matches: type the bank&apos;s 8-digit ISPB</source>
        <translation>Nenhum banco da lista de %1 corresponde: digite o ISPB do banco (8 dígitos)</translation>
    </message>
</context>
<context>
    <name>BatchApprovalDialog</name>
    <message>
        <source>Approve a batch</source>
        <translation>Aprovar um lote</translation>
    </message>
    <message>
        <source>Your team database password, to approve</source>
        <translation>Sua senha do banco de dados da equipe, para aprovar</translation>
    </message>
    <message>
        <source>This is not the total of the rows approved.</source>
        <translation>Este não é o total das linhas aprovadas.</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fechar</translation>
    </message>
    <message>
        <source>Batch %1, prepared by %2: %3 payment(s) waiting, %4 in total.</source>
        <translation>Lote %1, preparado por %2: %3 pagamento(s) aguardando, %4 no total.</translation>
    </message>
    <message>
        <source>To approve: %1 payment(s), %2. To reject: %3 payment(s), %4.</source>
        <translation>A aprovar: %1 pagamento(s), %2. A rejeitar: %3 pagamento(s), %4.</translation>
    </message>
    <message>
        <source>To decide, type the total of the rows approved (%1):</source>
        <translation>Para decidir, digite o total das linhas aprovadas (%1):</translation>
    </message>
    <message>
        <source>Approve %1 payment(s)</source>
        <translation>Aprovar %1 pagamento(s)</translation>
    </message>
    <message>
        <source>and reject %1</source>
        <translation>e rejeitar %1</translation>
    </message>
    <message>
        <source>Reject the whole batch</source>
        <translation>Rejeitar o lote inteiro</translation>
    </message>
    <message>
        <source>Type your team database password first.</source>
        <translation>Digite primeiro sua senha do banco de dados da equipe.</translation>
    </message>
    <message>
        <source>Deciding the batch…</source>
        <translation>Decidindo o lote…</translation>
    </message>
    <message>
        <source>Not decided: %1</source>
        <translation>Não decidido: %1</translation>
    </message>
    <message>
        <source>Decided: %1 approved, %2 rejected (never sent).</source>
        <translation>Decidido: %1 aprovado(s), %2 rejeitado(s) (nunca enviados).</translation>
    </message>
    <message>
        <source>Sent: %1 (accepted %2, refused %3, outcome unknown %4).</source>
        <translation>Enviados: %1 (aceitos %2, recusados %3, resultado desconhecido %4).</translation>
    </message>
    <message>
        <source>%1 row(s) wait for another approver.</source>
        <translation>%1 linha(s) aguardam outro aprovador.</translation>
    </message>
</context>
<context>
    <name>BatchListModel</name>
    <message>
        <source>Batch id</source>
        <translation>Id do lote</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Criação</translation>
    </message>
    <message>
        <source>Charges</source>
        <translation>Cobranças</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Descrição</translation>
    </message>
</context>
<context>
    <name>BatchRowsModel</name>
    <message>
        <source>Reject</source>
        <translation>Rejeitar</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Payee</source>
        <translation>Favorecido</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>Approvals</source>
        <translation>Aprovações</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Situação</translation>
    </message>
    <message>
        <source>Reason for rejecting</source>
        <translation>Motivo da rejeição</translation>
    </message>
    <message>
        <source>(new payee)</source>
        <translation>(novo favorecido)</translation>
    </message>
    <message>
        <source>Type why this row is rejected (double-click here).</source>
        <translation>Digite por que esta linha é rejeitada (clique duas vezes aqui).</translation>
    </message>
</context>
<context>
    <name>BilletReviewDialog</name>
    <message>
        <source>Review the slip</source>
        <translation>Conferir o boleto</translation>
    </message>
    <message>
        <source>Amount to be debited on %1</source>
        <translation>Valor a ser debitado em %1</translation>
    </message>
    <message>
        <source>Amount to be debited once approved</source>
        <translation>Valor a ser debitado depois de aprovado</translation>
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
        <source>Submit for approval</source>
        <translation>Enviar para aprovação</translation>
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
        <source>Pay on</source>
        <translation>Pagar em</translation>
    </message>
    <message>
        <source>Now</source>
        <translation>Agora</translation>
    </message>
    <message>
        <source>On its due date</source>
        <translation>No vencimento</translation>
    </message>
    <message>
        <source>On a date:</source>
        <translation>Numa data:</translation>
    </message>
    <message>
        <source>Change the date</source>
        <translation>Mudar a data</translation>
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
        <source>%1 (its due date)</source>
        <translation>%1 (o vencimento)</translation>
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
        <source>Sample slips…</source>
        <translation>Boletos de exemplo…</translation>
    </message>
    <message>
        <source>The sandbox bank&apos;s slips to learn with</source>
        <translation>Os boletos do banco sandbox para aprender</translation>
    </message>
    <message>
        <source>Now</source>
        <translation>Agora</translation>
    </message>
    <message>
        <source>On its due date</source>
        <translation>No vencimento</translation>
    </message>
    <message>
        <source>On a date:</source>
        <translation>Numa data:</translation>
    </message>
    <message>
        <source>Pay</source>
        <translation>Pagar</translation>
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
        <source>Search beneficiary, line, amount</source>
        <translation>Buscar beneficiário, linha, valor</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Exportar…</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>Data</translation>
    </message>
    <message>
        <source>Beneficiary</source>
        <translation>Beneficiário</translation>
    </message>
    <message>
        <source>Digitable line</source>
        <translation>Linha digitável</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Situação</translation>
    </message>
    <message>
        <source>Pay on</source>
        <translation>Pagar em</translation>
    </message>
    <message>
        <source>%1 slip(s) saved to %2</source>
        <translation>%1 boleto(s) salvo(s) em %2</translation>
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
        <source>Sample slips of the sandbox bank</source>
        <translation>Boletos de exemplo do banco sandbox</translation>
    </message>
    <message>
        <source>Slip</source>
        <translation>Boleto</translation>
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
        <source>Slip payments</source>
        <translation>Pagamentos de boletos</translation>
    </message>
    <message>
        <source>Export slip payments</source>
        <translation>Exportar pagamentos de boletos</translation>
    </message>
    <message>
        <source>none</source>
        <translation>nenhum</translation>
    </message>
    <message>
        <source>Use this slip</source>
        <translation>Usar este boleto</translation>
    </message>
    <message>
        <source>Slip already paid</source>
        <translation>Boleto já pago</translation>
    </message>
    <message>
        <source>Submitting the payment for approval…</source>
        <translation>Enviando o pagamento para aprovação…</translation>
    </message>
    <message>
        <source>Sending the payment…</source>
        <translation>Enviando o pagamento…</translation>
    </message>
    <message>
        <source>The same payment waits for approval</source>
        <translation>O mesmo pagamento aguarda aprovação</translation>
    </message>
    <message>
        <source>The payment was not sent.</source>
        <translation>O pagamento não foi enviado.</translation>
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
    <name>CalendarGridModel</name>
    <message>
        <source>Mon</source>
        <translation>Seg</translation>
    </message>
    <message>
        <source>Tue</source>
        <translation>Ter</translation>
    </message>
    <message>
        <source>Wed</source>
        <translation>Qua</translation>
    </message>
    <message>
        <source>Thu</source>
        <translation>Qui</translation>
    </message>
    <message>
        <source>Fri</source>
        <translation>Sex</translation>
    </message>
    <message>
        <source>Sat</source>
        <translation>Sáb</translation>
    </message>
    <message>
        <source>Sun</source>
        <translation>Dom</translation>
    </message>
    <message>
        <source>%1 planned occurrence(s) of a series, not journaled yet</source>
        <translation>%1 ocorrência(s) prevista(s) de uma série, ainda não registrada(s)</translation>
    </message>
</context>
<context>
    <name>CalendarTab</name>
    <message>
        <source>none</source>
        <translation>nenhum</translation>
    </message>
    <message>
        <source>A day whose projected balance falls below this amount is marked</source>
        <translation>Um dia cujo saldo projetado fique abaixo deste valor é destacado</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Atualizar</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Exportar…</translation>
    </message>
    <message>
        <source>Save the calendar&apos;s days as a CSV file</source>
        <translation>Salvar os dias do calendário num arquivo CSV</translation>
    </message>
    <message>
        <source>Warn below</source>
        <translation>Alertar abaixo de</translation>
    </message>
    <message>
        <source>Sandbox only: move the sandbox bank&apos;s clock (and the app&apos;s) to watch scheduled payments come due.</source>
        <translation>Somente no sandbox: adianta o relógio do banco sandbox (e o do aplicativo) para ver os pagamentos agendados chegarem ao dia.</translation>
    </message>
    <message>
        <source>+1 hour</source>
        <translation>+1 hora</translation>
    </message>
    <message>
        <source>+1 day</source>
        <translation>+1 dia</translation>
    </message>
    <message>
        <source>Next business day, 08:00</source>
        <translation>Próximo dia útil, 08:00</translation>
    </message>
    <message>
        <source>Move…</source>
        <translation>Mover…</translation>
    </message>
    <message>
        <source>Cancel payment…</source>
        <translation>Cancelar pagamento…</translation>
    </message>
    <message>
        <source>Edit series…</source>
        <translation>Editar série…</translation>
    </message>
    <message>
        <source>End series…</source>
        <translation>Encerrar série…</translation>
    </message>
    <message>
        <source>Today&apos;s balance: %1</source>
        <translation>Saldo de hoje: %1</translation>
    </message>
    <message>
        <source>%1 payment(s) and receipt(s) over 13 weeks</source>
        <translation>%1 pagamento(s) e recebimento(s) em 13 semanas</translation>
    </message>
    <message>
        <source>%1 of them planned in series</source>
        <translation>%1 deles previstos em séries</translation>
    </message>
    <message>
        <source>⚠ %1 day(s) below the line</source>
        <translation>⚠ %1 dia(s) abaixo do limite</translation>
    </message>
    <message>
        <source>expected receipts unavailable (the bank&apos;s charges could not be read)</source>
        <translation>recebimentos esperados indisponíveis (as cobranças do banco não puderam ser lidas)</translation>
    </message>
    <message>
        <source>Click a day to see its payments and receipts.</source>
        <translation>Clique num dia para ver seus pagamentos e recebimentos.</translation>
    </message>
    <message>
        <source>%1: out %2 · in %3 (counted %4) · projected balance %5</source>
        <translation>%1: saídas %2 · entradas %3 (consideradas %4) · saldo projetado %5</translation>
    </message>
    <message>
        <source>not a business day</source>
        <translation>não é dia útil</translation>
    </message>
    <message>
        <source>A planned occurrence of a series is not journaled yet: change it through its series (Edit series… or End series…).</source>
        <translation>Uma ocorrência prevista de uma série ainda não está registrada: altere-a pela série (Editar série… ou Encerrar série…).</translation>
    </message>
    <message>
        <source>Cancel the payment</source>
        <translation>Cancelar o pagamento</translation>
    </message>
    <message>
        <source>Why is the payment to %1 of %2 cancelled? (kept in the audit)</source>
        <translation>Por que o pagamento a %1 de %2 é cancelado? (fica na auditoria)</translation>
    </message>
    <message>
        <source>Sandbox clock: %1</source>
        <translation>Relógio do sandbox: %1</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>Data</translation>
    </message>
    <message>
        <source>Business day</source>
        <translation>Dia útil</translation>
    </message>
    <message>
        <source>Out</source>
        <translation>Saída</translation>
    </message>
    <message>
        <source>Out planned in series</source>
        <translation>Saída prevista em séries</translation>
    </message>
    <message>
        <source>In expected</source>
        <translation>Entradas previstas</translation>
    </message>
    <message>
        <source>In counted</source>
        <translation>Entradas consideradas</translation>
    </message>
    <message>
        <source>Projected balance</source>
        <translation>Saldo projetado</translation>
    </message>
    <message>
        <source>Payments and receipts</source>
        <translation>Pagamentos e recebimentos</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>Alerta</translation>
    </message>
    <message>
        <source>Yes</source>
        <translation>Sim</translation>
    </message>
    <message>
        <source>No</source>
        <translation>Não</translation>
    </message>
    <message>
        <source>Export the calendar</source>
        <translation>Exportar o calendário</translation>
    </message>
    <message>
        <source>%1 day(s) saved to %2</source>
        <translation>%1 dia(s) salvo(s) em %2</translation>
    </message>
    <message>
        <source>Exported</source>
        <translation>Exportado</translation>
    </message>
</context>
<context>
    <name>CalendarWords</name>
    <message>
        <source>Pix by key</source>
        <translation>Pix por chave</translation>
    </message>
    <message>
        <source>Pix by QR Code</source>
        <translation>Pix por QR Code</translation>
    </message>
    <message>
        <source>Pix by bank data</source>
        <translation>Pix por dados bancários</translation>
    </message>
    <message>
        <source>Boleto</source>
        <translation>Boleto</translation>
    </message>
    <message>
        <source>Pix batch</source>
        <translation>Lote Pix</translation>
    </message>
    <message>
        <source>Due-date charge</source>
        <translation>Cobrança com vencimento</translation>
    </message>
    <message>
        <source>Charge of a batch</source>
        <translation>Cobrança de um lote</translation>
    </message>
    <message>
        <source>Pix Automático charge</source>
        <translation>Cobrança do Pix Automático</translation>
    </message>
    <message>
        <source>Waiting for approval</source>
        <translation>Aguardando aprovação</translation>
    </message>
    <message>
        <source>Scheduled</source>
        <translation>Agendado</translation>
    </message>
    <message>
        <source>Held: a person decides</source>
        <translation>Retido: uma pessoa decide</translation>
    </message>
    <message>
        <source>Sending</source>
        <translation>Enviando</translation>
    </message>
    <message>
        <source>Paid</source>
        <translation>Pago</translation>
    </message>
    <message>
        <source>Failed at the bank</source>
        <translation>Falhou no banco</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Cancelado</translation>
    </message>
    <message>
        <source>Planned: next in its series, not journaled yet</source>
        <translation>Prevista: próxima da série, ainda não registrada</translation>
    </message>
    <message>
        <source>Projected balance below zero</source>
        <translation>Saldo projetado abaixo de zero</translation>
    </message>
    <message>
        <source>The day&apos;s payments exceed today&apos;s balance: held on the day unless money comes in</source>
        <translation>Os pagamentos do dia passam do saldo de hoje: retidos no dia, a menos que entre dinheiro</translation>
    </message>
    <message>
        <source>Projected balance below your threshold of %1</source>
        <translation>Saldo projetado abaixo do seu limite de %1</translation>
    </message>
    <message>
        <source>%1 (this payer paid %2 of %3)</source>
        <translation>%1 (este pagador pagou %2 de %3)</translation>
    </message>
    <message>
        <source>%1 (charges of this kind: %2 of %3 paid)</source>
        <translation>%1 (cobranças deste tipo: %2 de %3 pagas)</translation>
    </message>
    <message>
        <source>%1 (no history yet)</source>
        <translation>%1 (ainda sem histórico)</translation>
    </message>
</context>
<context>
    <name>ChangesModel</name>
    <message>
        <source>Change</source>
        <translation>Alteração</translation>
    </message>
    <message>
        <source>Payee and destination</source>
        <translation>Favorecido e destino</translation>
    </message>
    <message>
        <source>By</source>
        <translation>Por</translation>
    </message>
    <message>
        <source>When</source>
        <translation>Quando</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Resultado</translation>
    </message>
</context>
<context>
    <name>ChargeBatchDialog</name>
    <message>
        <source>Charges with a due date from a CSV file</source>
        <translation>Cobranças com vencimento por arquivo CSV</translation>
    </message>
    <message>
        <source>Download template…</source>
        <translation>Baixar modelo…</translation>
    </message>
    <message>
        <source>Optional, e.g. December fees</source>
        <translation>Opcional, ex.: mensalidades de dezembro</translation>
    </message>
    <message>
        <source>Pix key</source>
        <translation>Chave Pix</translation>
    </message>
    <message>
        <source>Batch description</source>
        <translation>Descrição do lote</translation>
    </message>
    <message>
        <source>Only lines with errors</source>
        <translation>Somente linhas com erro</translation>
    </message>
    <message>
        <source>Refresh statuses</source>
        <translation>Atualizar situações</translation>
    </message>
    <message>
        <source>Review…</source>
        <translation>Conferir…</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fechar</translation>
    </message>
    <message>
        <source>Review the batch</source>
        <translation>Conferir o lote</translation>
    </message>
    <message>
        <source>Charges</source>
        <translation>Cobranças</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>Total</translation>
    </message>
    <message>
        <source>Batch id</source>
        <translation>Id do lote</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>Voltar</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>Enviar</translation>
    </message>
    <message>
        <source>Open a batch of charges</source>
        <translation>Abrir um lote de cobranças</translation>
    </message>
    <message>
        <source>Pasted text</source>
        <translation>Texto colado</translation>
    </message>
    <message>
        <source>Line %1: %2</source>
        <translation>Linha %1: %2</translation>
    </message>
    <message>
        <source>Line %1, column %2</source>
        <translation>Linha %1, coluna %2</translation>
    </message>
    <message>
        <source>Line %1</source>
        <translation>Linha %1</translation>
    </message>
    <message>
        <source>Sending the batch…</source>
        <translation>Enviando o lote…</translation>
    </message>
    <message>
        <source>The batch was not sent; see above.</source>
        <translation>O lote não foi enviado; veja acima.</translation>
    </message>
    <message>
        <source>Open a CSV file (or download the template first).</source>
        <translation>Abra um arquivo CSV (ou baixe o modelo antes).</translation>
    </message>
    <message>
        <source>%1 charge(s), %2 in total</source>
        <translation>%1 cobrança(s), %2 no total</translation>
    </message>
    <message>
        <source>%1 line(s) with errors: fix the file and open it again, or leave them out.</source>
        <translation>%1 linha(s) com erros: corrija o arquivo e abra-o de novo, ou deixe-as de fora.</translation>
    </message>
    <message>
        <source>Leave out the %1 line(s) with errors and send the other %2</source>
        <translation>Deixar de fora as %1 linha(s) com erros e enviar as outras %2</translation>
    </message>
</context>
<context>
    <name>ChargeBatchModel</name>
    <message>
        <source>Line</source>
        <translation>Linha</translation>
    </message>
    <message>
        <source>txid</source>
        <translation>txid</translation>
    </message>
    <message>
        <source>Debtor</source>
        <translation>Devedor</translation>
    </message>
    <message>
        <source>CPF/CNPJ</source>
        <translation>CPF/CNPJ</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>Due date</source>
        <translation>Vencimento</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Descrição</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Situação</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>Problema</translation>
    </message>
    <message>
        <source>(generated)</source>
        <translation>(gerado)</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Erro</translation>
    </message>
    <message>
        <source>OK</source>
        <translation>OK</translation>
    </message>
</context>
<context>
    <name>ChargeBatches</name>
    <message>
        <source>Import CSV…</source>
        <translation>Importar CSV…</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Atualizar</translation>
    </message>
    <message>
        <source>Created from</source>
        <translation>Criados de</translation>
    </message>
    <message>
        <source>to</source>
        <translation>até</translation>
    </message>
    <message>
        <source>Batches</source>
        <translation>Lotes</translation>
    </message>
    <message>
        <source>Open batch</source>
        <translation>Abrir lote</translation>
    </message>
    <message>
        <source>Charges of the batch</source>
        <translation>Cobranças do lote</translation>
    </message>
    <message>
        <source>Open a batch to see its charges.</source>
        <translation>Abra um lote para ver suas cobranças.</translation>
    </message>
    <message>
        <source>Only refused charges</source>
        <translation>Somente cobranças recusadas</translation>
    </message>
    <message>
        <source>New amount</source>
        <translation>Novo valor</translation>
    </message>
    <message>
        <source>New due date</source>
        <translation>Novo vencimento</translation>
    </message>
    <message>
        <source>Revise selected charge</source>
        <translation>Revisar a cobrança selecionada</translation>
    </message>
</context>
<context>
    <name>ChargeDetailDialog</name>
    <message>
        <source>Charge %1</source>
        <translation>Cobrança %1</translation>
    </message>
    <message>
        <source>Copy and paste code (Pix Copia e Cola)</source>
        <translation>Código copia e cola (Pix Copia e Cola)</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Copiar</translation>
    </message>
    <message>
        <source>QR Code…</source>
        <translation>QR Code…</translation>
    </message>
    <message>
        <source>The QR Code image, to copy or save as PNG</source>
        <translation>A imagem do QR Code, para copiar ou salvar como PNG</translation>
    </message>
    <message>
        <source>Pix received and their refunds</source>
        <translation>Pix recebidos e suas devoluções</translation>
    </message>
    <message>
        <source>endToEndId / refund id</source>
        <translation>endToEndId / id da devolução</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Data/hora</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>Detalhe</translation>
    </message>
    <message>
        <source>txid</source>
        <translation>txid</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Situação</translation>
    </message>
    <message>
        <source>Revision</source>
        <translation>Revisão</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Criada em</translation>
    </message>
    <message>
        <source>Expiry</source>
        <translation>Expiração</translation>
    </message>
    <message>
        <source>Due date</source>
        <translation>Vencimento</translation>
    </message>
    <message>
        <source>Debtor</source>
        <translation>Devedor</translation>
    </message>
    <message>
        <source>Fine, interest, rebate, discount</source>
        <translation>Multa, juros, abatimento, desconto</translation>
    </message>
    <message>
        <source>Pix key</source>
        <translation>Chave Pix</translation>
    </message>
    <message>
        <source>Text for the payer</source>
        <translation>Texto para o pagador</translation>
    </message>
    <message>
        <source>Additional information</source>
        <translation>Informações adicionais</translation>
    </message>
    <message>
        <source>Location</source>
        <translation>Localização</translation>
    </message>
    <message>
        <source>Revise this charge</source>
        <translation>Revisar esta cobrança</translation>
    </message>
    <message>
        <source>Debtor&apos;s name</source>
        <translation>Nome do devedor</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Save revision</source>
        <translation>Salvar revisão</translation>
    </message>
    <message>
        <source>Revise…</source>
        <translation>Revisar…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Remover</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fechar</translation>
    </message>
    <message>
        <source>Immediate (cob)</source>
        <translation>Imediata (cob)</translation>
    </message>
    <message>
        <source>Due date (cobv)</source>
        <translation>Com vencimento (cobv)</translation>
    </message>
    <message>
        <source>(payable up to %1 days after)</source>
        <translation>(pagável até %1 dias depois)</translation>
    </message>
    <message>
        <source>%1 s after creation</source>
        <translation>%1 s após a criação</translation>
    </message>
    <message>
        <source>%1 s, until %2</source>
        <translation>%1 s, até %2</translation>
    </message>
    <message>
        <source>None</source>
        <translation>Não informado</translation>
    </message>
    <message>
        <source>(the payer may change it)</source>
        <translation>(o pagador pode alterá-lo)</translation>
    </message>
    <message>
        <source>Fine: %1</source>
        <translation>Multa: %1</translation>
    </message>
    <message>
        <source>Interest: %1</source>
        <translation>Juros: %1</translation>
    </message>
    <message>
        <source>Rebate: %1</source>
        <translation>Abatimento: %1</translation>
    </message>
    <message>
        <source>Discount: %1</source>
        <translation>Desconto: %1</translation>
    </message>
    <message>
        <source>%1 a calendar day</source>
        <translation>%1 ao dia corrido</translation>
    </message>
    <message>
        <source>%1 a month (calendar days)</source>
        <translation>%1 ao mês (dias corridos)</translation>
    </message>
    <message>
        <source>%1 a year (calendar days)</source>
        <translation>%1 ao ano (dias corridos)</translation>
    </message>
    <message>
        <source>%1 a business day</source>
        <translation>%1 ao dia útil</translation>
    </message>
    <message>
        <source>%1 a month (business days)</source>
        <translation>%1 ao mês (dias úteis)</translation>
    </message>
    <message>
        <source>%1 a year (business days)</source>
        <translation>%1 ao ano (dias úteis)</translation>
    </message>
    <message>
        <source>%1 (modality %2)</source>
        <translation>%1 (modalidade %2)</translation>
    </message>
    <message>
        <source>%1 until %2</source>
        <translation>%1 até %2</translation>
    </message>
    <message>
        <source>%1 per calendar day paid early</source>
        <translation>%1 por dia corrido de antecipação</translation>
    </message>
    <message>
        <source>%1 per business day paid early</source>
        <translation>%1 por dia útil de antecipação</translation>
    </message>
    <message>
        <source>This charge names no debtor: there is no name to change.</source>
        <translation>Esta cobrança não identifica o devedor: não há nome para alterar.</translation>
    </message>
    <message>
        <source>Please check the form</source>
        <translation>Verifique o formulário</translation>
    </message>
    <message>
        <source>Nothing to change</source>
        <translation>Nada a alterar</translation>
    </message>
    <message>
        <source>Change the amount, due date, debtor&apos;s name or text first.</source>
        <translation>Altere primeiro o valor, o vencimento, o nome do devedor ou o texto.</translation>
    </message>
    <message>
        <source>Remove the charge</source>
        <translation>Remover a cobrança</translation>
    </message>
    <message>
        <source>Remove the charge %1 of %2? Its QR Code stops working.</source>
        <translation>Remover a cobrança %1 de %2? O QR Code dela deixará de funcionar.</translation>
    </message>
    <message>
        <source>Keep</source>
        <translation>Manter</translation>
    </message>
</context>
<context>
    <name>ChargeFormDialog</name>
    <message>
        <source>New Pix charge</source>
        <translation>Nova cobrança Pix</translation>
    </message>
    <message>
        <source>Create charge</source>
        <translation>Criar cobrança</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Immediate charge (cob)</source>
        <translation>Cobrança imediata (cob)</translation>
    </message>
    <message>
        <source>Charge with a due date (cobv)</source>
        <translation>Cobrança com vencimento (cobv)</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Charge</source>
        <translation>Cobrança</translation>
    </message>
    <message>
        <source>The account&apos;s Pix key</source>
        <translation>A chave Pix da conta</translation>
    </message>
    <message>
        <source>000.000.000-00 or 00.000.000/0000-00</source>
        <translation>000.000.000-00 ou 00.000.000/0000-00</translation>
    </message>
    <message>
        <source>Shown to the payer (optional)</source>
        <translation>Exibido ao pagador (opcional)</translation>
    </message>
    <message>
        <source>Empty: generated (26 to 35 letters or digits)</source>
        <translation>Vazio: gerado automaticamente (26 a 35 letras ou dígitos)</translation>
    </message>
    <message>
        <source>Amount (R$)</source>
        <translation>Valor (R$)</translation>
    </message>
    <message>
        <source>Pix key</source>
        <translation>Chave Pix</translation>
    </message>
    <message>
        <source>Debtor&apos;s CPF or CNPJ</source>
        <translation>CPF ou CNPJ do devedor</translation>
    </message>
    <message>
        <source>Debtor&apos;s name</source>
        <translation>Nome do devedor</translation>
    </message>
    <message>
        <source>Message to the payer</source>
        <translation>Mensagem ao pagador</translation>
    </message>
    <message>
        <source>txid</source>
        <translation>txid</translation>
    </message>
    <message>
        <source>Immediate charge</source>
        <translation>Cobrança imediata</translation>
    </message>
    <message>
        <source>Expires after</source>
        <translation>Expira após</translation>
    </message>
    <message>
        <source>Charge with a due date</source>
        <translation>Cobrança com vencimento</translation>
    </message>
    <message>
        <source> days</source>
        <translation> dias</translation>
    </message>
    <message>
        <source>Fixed amount (R$)</source>
        <translation>Valor fixo (R$)</translation>
    </message>
    <message>
        <source>Percentage (%)</source>
        <translation>Percentual (%)</translation>
    </message>
    <message>
        <source>Amount per calendar day (R$)</source>
        <translation>Valor por dia corrido (R$)</translation>
    </message>
    <message>
        <source>% per calendar day</source>
        <translation>% ao dia corrido</translation>
    </message>
    <message>
        <source>% per month, calendar days</source>
        <translation>% ao mês, dias corridos</translation>
    </message>
    <message>
        <source>% per year, calendar days</source>
        <translation>% ao ano, dias corridos</translation>
    </message>
    <message>
        <source>Amount per business day (R$)</source>
        <translation>Valor por dia útil (R$)</translation>
    </message>
    <message>
        <source>% per business day</source>
        <translation>% ao dia útil</translation>
    </message>
    <message>
        <source>% per month, business days</source>
        <translation>% ao mês, dias úteis</translation>
    </message>
    <message>
        <source>% per year, business days</source>
        <translation>% ao ano, dias úteis</translation>
    </message>
    <message>
        <source>Fixed amount until a date (R$)</source>
        <translation>Valor fixo até uma data (R$)</translation>
    </message>
    <message>
        <source>Percentage until a date (%)</source>
        <translation>Percentual até uma data (%)</translation>
    </message>
    <message>
        <source>Amount per calendar day paid early (R$)</source>
        <translation>Valor por dia corrido de antecipação (R$)</translation>
    </message>
    <message>
        <source>Amount per business day paid early (R$)</source>
        <translation>Valor por dia útil de antecipação (R$)</translation>
    </message>
    <message>
        <source>% per calendar day paid early</source>
        <translation>% por dia corrido de antecipação</translation>
    </message>
    <message>
        <source>% per business day paid early</source>
        <translation>% por dia útil de antecipação</translation>
    </message>
    <message>
        <source>empty: not used</source>
        <translation>vazio: não utilizado</translation>
    </message>
    <message>
        <source>Date %1, value</source>
        <translation>Data %1, valor</translation>
    </message>
    <message>
        <source>Due date</source>
        <translation>Vencimento</translation>
    </message>
    <message>
        <source>Payable after the due date for</source>
        <translation>Pagável após o vencimento por</translation>
    </message>
    <message>
        <source>Fine</source>
        <translation>Multa</translation>
    </message>
    <message>
        <source>Interest</source>
        <translation>Juros</translation>
    </message>
    <message>
        <source>Rebate</source>
        <translation>Abatimento</translation>
    </message>
    <message>
        <source>Discount</source>
        <translation>Desconto</translation>
    </message>
    <message>
        <source>None</source>
        <translation>Nenhum</translation>
    </message>
    <message>
        <source>Use a reusable location</source>
        <translation>Usar uma localização reutilizável</translation>
    </message>
    <message>
        <source>A location is the address inside the QR Code; it can be printed in advance.</source>
        <translation>A localização é o endereço contido no QR Code; pode ser impressa com antecedência.</translation>
    </message>
    <message>
        <source>Create a new location</source>
        <translation>Criar uma nova localização</translation>
    </message>
    <message>
        <source>Existing location id:</source>
        <translation>Id da localização existente:</translation>
    </message>
    <message>
        <source>optional</source>
        <translation>opcional</translation>
    </message>
    <message>
        <source>required</source>
        <translation>obrigatório</translation>
    </message>
    <message>
        <source>The debtor (%1)</source>
        <translation>O devedor (%1)</translation>
    </message>
    <message>
        <source>One field needs attention.</source>
        <translation>Um campo precisa de atenção.</translation>
    </message>
    <message>
        <source>%1 fields need attention.</source>
        <translation>%1 campos precisam de atenção.</translation>
    </message>
    <message>
        <source>Please check the form</source>
        <translation>Verifique o formulário</translation>
    </message>
    <message>
        <source>The charge was created, but its QR Code cannot be shown</source>
        <translation>A cobrança foi criada, mas o QR Code não pode ser exibido</translation>
    </message>
    <message>
        <source>Charge %1 created: %2</source>
        <translation>Cobrança %1 criada: %2</translation>
    </message>
</context>
<context>
    <name>ChargeQrDialog</name>
    <message>
        <source>Pix charge %1</source>
        <translation>Cobrança Pix %1</translation>
    </message>
    <message>
        <source>Pix Copia e Cola</source>
        <translation>Pix Copia e Cola</translation>
    </message>
    <message>
        <source>Transaction id (txid)</source>
        <translation>Identificador da transação (txid)</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>Debtor</source>
        <translation>Devedor</translation>
    </message>
    <message>
        <source>(payable for %1 days after)</source>
        <translation>(pagável por %1 dias depois)</translation>
    </message>
    <message>
        <source>Due date</source>
        <translation>Vencimento</translation>
    </message>
    <message>
        <source>Expires</source>
        <translation>Expira</translation>
    </message>
    <message>
        <source>%1 s after creation</source>
        <translation>%1 s após a criação</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Copiar</translation>
    </message>
    <message>
        <source>Copy the Pix Copia e Cola text to the clipboard</source>
        <translation>Copiar o texto do Pix Copia e Cola para a área de transferência</translation>
    </message>
    <message>
        <source>Save as PNG…</source>
        <translation>Salvar como PNG…</translation>
    </message>
    <message>
        <source>Save as SVG…</source>
        <translation>Salvar como SVG…</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fechar</translation>
    </message>
    <message>
        <source>Pix Copia e Cola copied to the clipboard.</source>
        <translation>Pix Copia e Cola copiado para a área de transferência.</translation>
    </message>
    <message>
        <source>Choose a file name ending in .png or .svg (not %1).</source>
        <translation>Escolha um nome de arquivo terminado em .png ou .svg (não %1).</translation>
    </message>
    <message>
        <source>Save the QR Code as PNG</source>
        <translation>Salvar o QR Code como PNG</translation>
    </message>
    <message>
        <source>Save the QR Code as SVG</source>
        <translation>Salvar o QR Code como SVG</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>Imagem PNG (*.png)</translation>
    </message>
    <message>
        <source>SVG image (*.svg)</source>
        <translation>Imagem SVG (*.svg)</translation>
    </message>
    <message>
        <source>Could not save the QR Code</source>
        <translation>Não foi possível salvar o QR Code</translation>
    </message>
    <message>
        <source>QR Code saved to %1</source>
        <translation>QR Code salvo em %1</translation>
    </message>
</context>
<context>
    <name>ChargesList</name>
    <message>
        <source>Created from</source>
        <translation>Criadas de</translation>
    </message>
    <message>
        <source>Any status</source>
        <translation>Qualquer situação</translation>
    </message>
    <message>
        <source>Any kind</source>
        <translation>Qualquer tipo</translation>
    </message>
    <message>
        <source>Immediate (cob)</source>
        <translation>Imediata (cob)</translation>
    </message>
    <message>
        <source>Due date (cobv)</source>
        <translation>Com vencimento (cobv)</translation>
    </message>
    <message>
        <source>Debtor&apos;s CPF/CNPJ</source>
        <translation>CPF/CNPJ do devedor</translation>
    </message>
    <message>
        <source>Search txid, debtor, text, amount</source>
        <translation>Buscar txid, devedor, texto, valor</translation>
    </message>
    <message>
        <source>Details…</source>
        <translation>Detalhes…</translation>
    </message>
    <message>
        <source>Sandbox: simulate payer</source>
        <translation>Sandbox: simular pagador</translation>
    </message>
    <message>
        <source>Sandbox only: a test payer pays the selected active charge in full, as a real payer would with their bank&apos;s app.</source>
        <translation>Somente no sandbox: um pagador de teste paga integralmente a cobrança ativa selecionada, como um pagador real faria pelo aplicativo do seu banco.</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Exportar…</translation>
    </message>
    <message>
        <source>Save the charges shown as a CSV file</source>
        <translation>Salvar as cobranças exibidas em um arquivo CSV</translation>
    </message>
    <message>
        <source>%1 charges</source>
        <translation>%1 cobranças</translation>
    </message>
    <message>
        <source>%1 of %2 charges</source>
        <translation>%1 de %2 cobranças</translation>
    </message>
    <message>
        <source>CPF/CNPJ</source>
        <translation>CPF/CNPJ</translation>
    </message>
    <message>
        <source>Due date</source>
        <translation>Vencimento</translation>
    </message>
    <message>
        <source>Export charges</source>
        <translation>Exportar cobranças</translation>
    </message>
    <message>
        <source>Exported</source>
        <translation>Exportado</translation>
    </message>
    <message>
        <source>%1 charge(s) saved to %2</source>
        <translation>%1 cobrança(s) salva(s) em %2</translation>
    </message>
</context>
<context>
    <name>ChargesModel</name>
    <message>
        <source>Created</source>
        <translation>Criação</translation>
    </message>
    <message>
        <source>txid</source>
        <translation>txid</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Debtor</source>
        <translation>Devedor</translation>
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
        <source>Immediate (cob)</source>
        <translation>Imediata (cob)</translation>
    </message>
    <message>
        <source>Due date (cobv)</source>
        <translation>Com vencimento (cobv)</translation>
    </message>
</context>
<context>
    <name>ChargesTab</name>
    <message>
        <source>New charge…</source>
        <translation>Nova cobrança…</translation>
    </message>
    <message>
        <source>Issue an immediate charge or one with a due date, and show its QR Code</source>
        <translation>Emitir uma cobrança imediata ou com vencimento e exibir seu QR Code</translation>
    </message>
    <message>
        <source>Charges</source>
        <translation>Cobranças</translation>
    </message>
    <message>
        <source>Received Pix</source>
        <translation>Pix recebidos</translation>
    </message>
    <message>
        <source>Batches</source>
        <translation>Lotes</translation>
    </message>
    <message>
        <source>Locations</source>
        <translation>Localizações</translation>
    </message>
    <message>
        <source>Charges the company issues by Pix, and what was received.</source>
        <translation>Cobranças que a empresa emite por Pix e o que foi recebido.</translation>
    </message>
</context>
<context>
    <name>CobrAttemptsModel</name>
    <message>
        <source>Type</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Situação</translation>
    </message>
    <message>
        <source>Settlement date</source>
        <translation>Data de liquidação</translation>
    </message>
    <message>
        <source>endToEndId</source>
        <translation>endToEndId</translation>
    </message>
</context>
<context>
    <name>CobrDialog</name>
    <message>
        <source>Recurring charge — %1</source>
        <translation>Cobrança recorrente — %1</translation>
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
        <source>Close</source>
        <translation>Fechar</translation>
    </message>
    <message>
        <source>txid</source>
        <translation>txid</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Situação</translation>
    </message>
    <message>
        <source>Retry policy</source>
        <translation>Política de novas tentativas</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Atualizar</translation>
    </message>
    <message>
        <source>Cancel charge…</source>
        <translation>Cancelar cobrança…</translation>
    </message>
    <message>
        <source>Schedule retry…</source>
        <translation>Agendar nova tentativa…</translation>
    </message>
    <message>
        <source>Sandbox: settle the next attempt</source>
        <translation>Sandbox: liquidar a próxima tentativa</translation>
    </message>
    <message>
        <source>Sandbox: fail the next attempt</source>
        <translation>Sandbox: fazer falhar a próxima tentativa</translation>
    </message>
    <message>
        <source>Retry on</source>
        <translation>Nova tentativa em</translation>
    </message>
    <message>
        <source>Settlement attempts</source>
        <translation>Tentativas de liquidação</translation>
    </message>
    <message>
        <source>Sandbox only: plays the payer&apos;s bank and moves the test bank&apos;s clock to the settlement moment (10:00 in Brasília on the settlement date). Other open charges due by then settle too.</source>
        <translation>Somente no sandbox: faz o papel do banco do pagador e avança o relógio do banco de testes até o momento da liquidação (10:00 de Brasília na data de liquidação). Outras cobranças em aberto com vencimento até lá também são liquidadas.</translation>
    </message>
    <message>
        <source>Recurrence %1 of %2 (%3), %4, retry policy %5.</source>
        <translation>Recorrência %1 de %2 (%3), %4, política de novas tentativas %5.</translation>
    </message>
    <message>
        <source>Status: %1.</source>
        <translation>Situação: %1.</translation>
    </message>
    <message>
        <source>Up to 3 retries after a failed attempt, until %1 (7 days after the due date).</source>
        <translation>Até 3 novas tentativas após uma tentativa com falha, até %1 (7 dias após o vencimento).</translation>
    </message>
    <message>
        <source>Cancel the recurring charge %1 of %2 due %3?</source>
        <translation>Cancelar a cobrança recorrente %1 de %2 com vencimento em %3?</translation>
    </message>
    <message>
        <source>Cancel the charge</source>
        <translation>Cancelar a cobrança</translation>
    </message>
    <message>
        <source>Recurring charge cancelled: %1.</source>
        <translation>Cobrança recorrente cancelada: %1.</translation>
    </message>
    <message>
        <source>Try again to debit %1 from %2 on %3?</source>
        <translation>Tentar novamente debitar %1 de %2 em %3?</translation>
    </message>
    <message>
        <source>Schedule a retry</source>
        <translation>Agendar uma nova tentativa</translation>
    </message>
    <message>
        <source>Retry scheduled on %1; the charge is %2.</source>
        <translation>Nova tentativa agendada para %1; situação da cobrança: %2.</translation>
    </message>
    <message>
        <source>Sandbox: the attempt is %1; the charge is %2.</source>
        <translation>Sandbox: situação da tentativa: %1; situação da cobrança: %2.</translation>
    </message>
    <message>
        <source>Waiting for the bank&apos;s answer</source>
        <translation>Aguardando a resposta do banco</translation>
    </message>
    <message>
        <source>The request is already on its way; close the window once it answers.</source>
        <translation>A solicitação já foi enviada; feche a janela quando o banco responder.</translation>
    </message>
</context>
<context>
    <name>CodeWords</name>
    <message>
        <source>Fraud</source>
        <translation>Fraude</translation>
    </message>
    <message>
        <source>Refund request</source>
        <translation>Pedido de devolução</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Aberta</translation>
    </message>
    <message>
        <source>Under review</source>
        <translation>Em análise</translation>
    </message>
    <message>
        <source>Closed</source>
        <translation>Encerrada</translation>
    </message>
    <message>
        <source>Suspected fraud</source>
        <translation>Suspeita de fraude</translation>
    </message>
    <message>
        <source>Refund requested</source>
        <translation>Devolução solicitada</translation>
    </message>
    <message>
        <source>The payer&apos;s bank</source>
        <translation>Instituição do pagador</translation>
    </message>
    <message>
        <source>The receiver&apos;s bank</source>
        <translation>Instituição do recebedor</translation>
    </message>
    <message>
        <source>Upheld</source>
        <translation>Procedente</translation>
    </message>
    <message>
        <source>Not upheld</source>
        <translation>Improcedente</translation>
    </message>
    <message>
        <source>Submitted</source>
        <translation>Enviada</translation>
    </message>
    <message>
        <source>Accepted</source>
        <translation>Aceita</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>Rejeitada</translation>
    </message>
    <message>
        <source>Weekly</source>
        <translation>Semanal</translation>
    </message>
    <message>
        <source>Monthly</source>
        <translation>Mensal</translation>
    </message>
    <message>
        <source>Quarterly</source>
        <translation>Trimestral</translation>
    </message>
    <message>
        <source>Every six months</source>
        <translation>Semestral</translation>
    </message>
    <message>
        <source>Yearly</source>
        <translation>Anual</translation>
    </message>
    <message>
        <source>No retries</source>
        <translation>Sem novas tentativas</translation>
    </message>
    <message>
        <source>Up to 3 retries within 7 days</source>
        <translation>Até 3 novas tentativas em 7 dias</translation>
    </message>
    <message>
        <source>Journey 1: request to the payer&apos;s bank</source>
        <translation>Jornada 1: solicitação ao banco do pagador</translation>
    </message>
    <message>
        <source>Journey 2: authorisation QR Code</source>
        <translation>Jornada 2: QR Code de autorização</translation>
    </message>
    <message>
        <source>Journey 3: QR Code with a payment</source>
        <translation>Jornada 3: QR Code com pagamento</translation>
    </message>
    <message>
        <source>Journey 4: offered after a payment</source>
        <translation>Jornada 4: oferta após um pagamento</translation>
    </message>
    <message>
        <source>Not decided yet</source>
        <translation>Ainda não definida</translation>
    </message>
    <message>
        <source>Waiting for the payer</source>
        <translation>Aguardando o pagador</translation>
    </message>
    <message>
        <source>Authorised</source>
        <translation>Autorizada</translation>
    </message>
    <message>
        <source>Refused by the payer</source>
        <translation>Recusada pelo pagador</translation>
    </message>
    <message>
        <source>Expired</source>
        <translation>Expirada</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Cancelada</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Criada</translation>
    </message>
    <message>
        <source>Sent to the payer&apos;s bank</source>
        <translation>Enviada ao banco do pagador</translation>
    </message>
    <message>
        <source>Received by the payer&apos;s bank</source>
        <translation>Recebida pelo banco do pagador</translation>
    </message>
    <message>
        <source>Accepted by the payer</source>
        <translation>Aceita pelo pagador</translation>
    </message>
    <message>
        <source>Scheduled</source>
        <translation>Agendada</translation>
    </message>
    <message>
        <source>Paid</source>
        <translation>Paga</translation>
    </message>
    <message>
        <source>Refused</source>
        <translation>Recusada</translation>
    </message>
    <message>
        <source>Requested</source>
        <translation>Solicitada</translation>
    </message>
    <message>
        <source>Scheduled debit</source>
        <translation>Débito agendado</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>Nova tentativa</translation>
    </message>
    <message>
        <source>Same-day retry</source>
        <translation>Nova tentativa no mesmo dia</translation>
    </message>
    <message>
        <source>Checking account</source>
        <translation>Conta corrente</translation>
    </message>
    <message>
        <source>Savings account</source>
        <translation>Conta poupança</translation>
    </message>
    <message>
        <source>Payment account</source>
        <translation>Conta de pagamento</translation>
    </message>
    <message>
        <source>Salary account</source>
        <translation>Conta salário</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>Ativa</translation>
    </message>
    <message>
        <source>Removed by us</source>
        <translation>Removida por nós</translation>
    </message>
    <message>
        <source>Removed by the bank</source>
        <translation>Removida pelo banco</translation>
    </message>
    <message>
        <source>Processing</source>
        <translation>Em processamento</translation>
    </message>
    <message>
        <source>Refunded</source>
        <translation>Devolvida</translation>
    </message>
    <message>
        <source>Not made</source>
        <translation>Não realizada</translation>
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
        <translation>Telefone</translation>
    </message>
    <message>
        <source>Random key</source>
        <translation>Chave aleatória</translation>
    </message>
    <message>
        <source>Pix</source>
        <translation>Pix</translation>
    </message>
    <message>
        <source>Slip</source>
        <translation>Boleto</translation>
    </message>
    <message>
        <source>Refund</source>
        <translation>Devolução</translation>
    </message>
    <message>
        <source>Fee</source>
        <translation>Tarifa</translation>
    </message>
    <message>
        <source>TED</source>
        <translation>TED</translation>
    </message>
    <message>
        <source>Credit</source>
        <translation>Crédito</translation>
    </message>
    <message>
        <source>Debit</source>
        <translation>Débito</translation>
    </message>
    <message>
        <source>Refused by the payer&apos;s bank</source>
        <translation>Recusada pelo banco do pagador</translation>
    </message>
    <message>
        <source>The payer&apos;s account was closed</source>
        <translation>A conta do pagador foi encerrada</translation>
    </message>
    <message>
        <source>The payer&apos;s company was closed</source>
        <translation>A empresa do pagador foi encerrada</translation>
    </message>
    <message>
        <source>The payer died</source>
        <translation>Falecimento do pagador</translation>
    </message>
    <message>
        <source>The confirmation request was sent in error</source>
        <translation>A solicitação de confirmação foi enviada por erro</translation>
    </message>
    <message>
        <source>The payer&apos;s bank did not answer the confirmation request in time</source>
        <translation>O banco do pagador não respondeu à solicitação de confirmação no prazo</translation>
    </message>
    <message>
        <source>At the receiver&apos;s request</source>
        <translation>A pedido do recebedor</translation>
    </message>
    <message>
        <source>At the payer&apos;s request</source>
        <translation>A pedido do pagador</translation>
    </message>
    <message>
        <source>An error at the payer&apos;s bank stopped it</source>
        <translation>Um erro no banco do pagador a interrompeu</translation>
    </message>
    <message>
        <source>The payer&apos;s account is closed</source>
        <translation>A conta do pagador está encerrada</translation>
    </message>
    <message>
        <source>The payer&apos;s account is blocked</source>
        <translation>A conta do pagador está bloqueada</translation>
    </message>
    <message>
        <source>Above the maximum amount the payer set</source>
        <translation>Acima do valor máximo definido pelo pagador</translation>
    </message>
    <message>
        <source>Insufficient funds in the payer&apos;s account</source>
        <translation>Saldo insuficiente na conta do pagador</translation>
    </message>
    <message>
        <source>Not the amount of the recurrence</source>
        <translation>Não é o valor da recorrência</translation>
    </message>
    <message>
        <source>The payer&apos;s CPF or CNPJ is not the recurrence&apos;s</source>
        <translation>O CPF ou CNPJ do pagador não é o da recorrência</translation>
    </message>
    <message>
        <source>The payer&apos;s bank does not operate in the Pix settlement system</source>
        <translation>O banco do pagador não opera no sistema de liquidação do Pix</translation>
    </message>
    <message>
        <source>The due date does not fit the recurrence&apos;s periodicity</source>
        <translation>O vencimento não corresponde à periodicidade da recorrência</translation>
    </message>
    <message>
        <source>The settlement was not completed</source>
        <translation>A liquidação não foi concluída</translation>
    </message>
    <message>
        <source>The payer&apos;s bank is not identified correctly</source>
        <translation>O banco do pagador não está identificado corretamente</translation>
    </message>
    <message>
        <source>Refused on the payer&apos;s side (see the bank&apos;s description)</source>
        <translation>Recusada do lado do pagador (veja a descrição do banco)</translation>
    </message>
    <message>
        <source>The recurrence was cancelled</source>
        <translation>A recorrência foi cancelada</translation>
    </message>
    <message>
        <source>The settlement failed</source>
        <translation>A liquidação falhou</translation>
    </message>
    <message>
        <source>Another reason</source>
        <translation>Outro motivo</translation>
    </message>
    <message>
        <source>cancelled by the payer&apos;s bank</source>
        <translation>cancelada pelo banco do pagador</translation>
    </message>
    <message>
        <source>cancelled by the payer</source>
        <translation>cancelada pelo pagador</translation>
    </message>
    <message>
        <source>cancelled by our bank</source>
        <translation>cancelada pelo nosso banco</translation>
    </message>
    <message>
        <source>cancelled by us</source>
        <translation>cancelada por nós</translation>
    </message>
    <message>
        <source>The bank found the request invalid</source>
        <translation>O banco considerou a requisição inválida</translation>
    </message>
    <message>
        <source>The bank did not accept the access token</source>
        <translation>O banco não aceitou o token de acesso</translation>
    </message>
    <message>
        <source>The bank denied access (permission or client certificate)</source>
        <translation>O banco negou o acesso (permissão ou certificado de cliente)</translation>
    </message>
    <message>
        <source>The bank did not find what was asked</source>
        <translation>O banco não encontrou o que foi pedido</translation>
    </message>
    <message>
        <source>The bank does not take this operation here</source>
        <translation>O banco não aceita esta operação aqui</translation>
    </message>
    <message>
        <source>The bank refused it: it conflicts with what the bank holds</source>
        <translation>O banco recusou: conflita com o que o banco já tem</translation>
    </message>
    <message>
        <source>The bank removed this for good</source>
        <translation>O banco removeu isto definitivamente</translation>
    </message>
    <message>
        <source>The bank already holds a request with this key</source>
        <translation>O banco já tem uma requisição com esta chave</translation>
    </message>
    <message>
        <source>The bank refused it by one of its rules</source>
        <translation>O banco recusou por uma de suas regras</translation>
    </message>
    <message>
        <source>Too many requests to the bank: try again in a moment</source>
        <translation>Requisições demais ao banco: tente de novo em instantes</translation>
    </message>
    <message>
        <source>Technical failure at the bank</source>
        <translation>Falha técnica no banco</translation>
    </message>
    <message>
        <source>The bank&apos;s service is unavailable right now</source>
        <translation>O serviço do banco está indisponível no momento</translation>
    </message>
    <message>
        <source>The bank took too long to answer</source>
        <translation>O banco demorou demais para responder</translation>
    </message>
    <message>
        <source>The bank did not find the charge of this QR Code</source>
        <translation>O banco não encontrou a cobrança deste QR Code</translation>
    </message>
    <message>
        <source>The bank did not find the recurrence of this QR Code</source>
        <translation>O banco não encontrou a recorrência deste QR Code</translation>
    </message>
    <message>
        <source>The bank did not find the recurrence</source>
        <translation>O banco não encontrou a recorrência</translation>
    </message>
    <message>
        <source>The bank did not find the confirmation request</source>
        <translation>O banco não encontrou a solicitação de confirmação</translation>
    </message>
    <message>
        <source>The bank did not find the recurring charge</source>
        <translation>O banco não encontrou a cobrança recorrente</translation>
    </message>
    <message>
        <source>The bank did not find the charge</source>
        <translation>O banco não encontrou a cobrança</translation>
    </message>
    <message>
        <source>The bank did not find the due-date charge</source>
        <translation>O banco não encontrou a cobrança com vencimento</translation>
    </message>
    <message>
        <source>The bank did not find the batch of charges</source>
        <translation>O banco não encontrou o lote de cobranças</translation>
    </message>
    <message>
        <source>The bank did not find the QR Code&apos;s location</source>
        <translation>O banco não encontrou a localização do QR Code</translation>
    </message>
    <message>
        <source>The bank did not find the recurrence QR Code&apos;s location</source>
        <translation>O banco não encontrou a localização do QR Code da recorrência</translation>
    </message>
    <message>
        <source>The bank did not find the Pix</source>
        <translation>O banco não encontrou o Pix</translation>
    </message>
    <message>
        <source>The bank did not find the refund</source>
        <translation>O banco não encontrou a devolução</translation>
    </message>
    <message>
        <source>The bank did not find the webhook</source>
        <translation>O banco não encontrou o webhook</translation>
    </message>
    <message>
        <source>The bank refused the charge of this QR Code</source>
        <translation>O banco recusou a cobrança deste QR Code</translation>
    </message>
    <message>
        <source>The bank refused the recurrence of this QR Code</source>
        <translation>O banco recusou a recorrência deste QR Code</translation>
    </message>
    <message>
        <source>The bank refused the recurrence</source>
        <translation>O banco recusou a recorrência</translation>
    </message>
    <message>
        <source>The bank refused the search for recurrences</source>
        <translation>O banco recusou a consulta de recorrências</translation>
    </message>
    <message>
        <source>The bank refused the confirmation request</source>
        <translation>O banco recusou a solicitação de confirmação</translation>
    </message>
    <message>
        <source>The bank refused the recurring charge</source>
        <translation>O banco recusou a cobrança recorrente</translation>
    </message>
    <message>
        <source>The bank refused the search for recurring charges</source>
        <translation>O banco recusou a consulta de cobranças recorrentes</translation>
    </message>
    <message>
        <source>The bank refused the charge</source>
        <translation>O banco recusou a cobrança</translation>
    </message>
    <message>
        <source>The bank refused the search for charges</source>
        <translation>O banco recusou a consulta de cobranças</translation>
    </message>
    <message>
        <source>The bank refused the due-date charge</source>
        <translation>O banco recusou a cobrança com vencimento</translation>
    </message>
    <message>
        <source>The bank refused the search for due-date charges</source>
        <translation>O banco recusou a consulta de cobranças com vencimento</translation>
    </message>
    <message>
        <source>The bank refused the batch of charges</source>
        <translation>O banco recusou o lote de cobranças</translation>
    </message>
    <message>
        <source>The bank refused the search for batches of charges</source>
        <translation>O banco recusou a consulta de lotes de cobranças</translation>
    </message>
    <message>
        <source>The bank refused the QR Code&apos;s location</source>
        <translation>O banco recusou a localização do QR Code</translation>
    </message>
    <message>
        <source>The bank refused the search for QR Code locations</source>
        <translation>O banco recusou a consulta de localizações de QR Code</translation>
    </message>
    <message>
        <source>The bank refused the search for recurrence QR Code locations</source>
        <translation>O banco recusou a consulta de localizações de QR Code de recorrência</translation>
    </message>
    <message>
        <source>The bank refused the search for received Pix</source>
        <translation>O banco recusou a consulta de Pix recebidos</translation>
    </message>
    <message>
        <source>The bank refused the refund</source>
        <translation>O banco recusou a devolução</translation>
    </message>
    <message>
        <source>The bank refused the webhook</source>
        <translation>O banco recusou o webhook</translation>
    </message>
    <message>
        <source>The bank refused the search for webhooks</source>
        <translation>O banco recusou a consulta de webhooks</translation>
    </message>
    <message>
        <source>The bank refused the recurrences&apos; webhook</source>
        <translation>O banco recusou o webhook das recorrências</translation>
    </message>
    <message>
        <source>The bank refused the search for the recurrences&apos; webhook</source>
        <translation>O banco recusou a consulta do webhook das recorrências</translation>
    </message>
    <message>
        <source>The bank refused the recurring charges&apos; webhook</source>
        <translation>O banco recusou o webhook das cobranças recorrentes</translation>
    </message>
    <message>
        <source>The bank refused the search for the recurring charges&apos; webhook</source>
        <translation>O banco recusou a consulta do webhook das cobranças recorrentes</translation>
    </message>
    <message>
        <source>Insufficient funds</source>
        <translation>Saldo insuficiente</translation>
    </message>
    <message>
        <source>The Pix key does not exist</source>
        <translation>A chave Pix não existe</translation>
    </message>
    <message>
        <source>This slip was paid already</source>
        <translation>Este boleto já foi pago</translation>
    </message>
    <message>
        <source>This slip is overdue</source>
        <translation>Este boleto está vencido</translation>
    </message>
    <message>
        <source>Outside the bank&apos;s hours for this payment</source>
        <translation>Fora do horário do banco para este pagamento</translation>
    </message>
    <message>
        <source>Other (unknown code)</source>
        <translation>Outro (código desconhecido)</translation>
    </message>
    <message>
        <source>QR Codes</source>
        <translation>QR Codes</translation>
    </message>
    <message>
        <source>QR Codes API</source>
        <translation>API de QR Codes</translation>
    </message>
    <message>
        <source>Accounts</source>
        <translation>Contas</translation>
    </message>
    <message>
        <source>Accounts API</source>
        <translation>API de Contas</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>Minimum amount</source>
        <translation>Valor mínimo</translation>
    </message>
    <message>
        <source>Amount the payer may change</source>
        <translation>Valor alterável pelo pagador</translation>
    </message>
    <message>
        <source>Fine</source>
        <translation>Multa</translation>
    </message>
    <message>
        <source>Interest</source>
        <translation>Juros</translation>
    </message>
    <message>
        <source>Rebate</source>
        <translation>Abatimento</translation>
    </message>
    <message>
        <source>Discount</source>
        <translation>Desconto</translation>
    </message>
    <message>
        <source>Expiry</source>
        <translation>Validade</translation>
    </message>
    <message>
        <source>Due date</source>
        <translation>Vencimento</translation>
    </message>
    <message>
        <source>Days payable after the due date</source>
        <translation>Dias para pagamento após o vencimento</translation>
    </message>
    <message>
        <source>First payment date</source>
        <translation>Data do primeiro pagamento</translation>
    </message>
    <message>
        <source>Last payment date</source>
        <translation>Data do último pagamento</translation>
    </message>
    <message>
        <source>Frequency</source>
        <translation>Periodicidade</translation>
    </message>
    <message>
        <source>Retries</source>
        <translation>Novas tentativas</translation>
    </message>
    <message>
        <source>Payer</source>
        <translation>Pagador</translation>
    </message>
    <message>
        <source>Payer&apos;s CPF</source>
        <translation>CPF do pagador</translation>
    </message>
    <message>
        <source>Payer&apos;s CNPJ</source>
        <translation>CNPJ do pagador</translation>
    </message>
    <message>
        <source>Payer&apos;s name</source>
        <translation>Nome do pagador</translation>
    </message>
    <message>
        <source>Payer&apos;s e-mail</source>
        <translation>E-mail do pagador</translation>
    </message>
    <message>
        <source>Contract</source>
        <translation>Contrato</translation>
    </message>
    <message>
        <source>What it pays for</source>
        <translation>Objeto</translation>
    </message>
    <message>
        <source>Debtor</source>
        <translation>Devedor</translation>
    </message>
    <message>
        <source>Pix key</source>
        <translation>Chave Pix</translation>
    </message>
    <message>
        <source>Pix key type</source>
        <translation>Tipo de chave Pix</translation>
    </message>
    <message>
        <source>Transaction id (txid)</source>
        <translation>Identificador da transação (txid)</translation>
    </message>
    <message>
        <source>Recurrence id</source>
        <translation>Identificador da recorrência</translation>
    </message>
    <message>
        <source>Message to the payer</source>
        <translation>Mensagem ao pagador</translation>
    </message>
    <message>
        <source>Additional information</source>
        <translation>Informações adicionais</translation>
    </message>
    <message>
        <source>QR Code location</source>
        <translation>Localização do QR Code</translation>
    </message>
    <message>
        <source>Kind of refund</source>
        <translation>Natureza da devolução</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Descrição</translation>
    </message>
    <message>
        <source>Notification address</source>
        <translation>Endereço de notificação</translation>
    </message>
    <message>
        <source>QR Code</source>
        <translation>QR Code</translation>
    </message>
    <message>
        <source>Slip&apos;s barcode or digitable line</source>
        <translation>Código de barras ou linha digitável do boleto</translation>
    </message>
    <message>
        <source>Payee&apos;s CPF or CNPJ</source>
        <translation>CPF ou CNPJ do favorecido</translation>
    </message>
    <message>
        <source>Payee&apos;s bank account</source>
        <translation>Conta do favorecido</translation>
    </message>
    <message>
        <source>Payee&apos;s bank</source>
        <translation>Banco do favorecido</translation>
    </message>
    <message>
        <source>Payee&apos;s branch</source>
        <translation>Agência do favorecido</translation>
    </message>
    <message>
        <source>Payee&apos;s account number</source>
        <translation>Número da conta do favorecido</translation>
    </message>
    <message>
        <source>Payee&apos;s account type</source>
        <translation>Tipo de conta do favorecido</translation>
    </message>
    <message>
        <source>Payee&apos;s name</source>
        <translation>Nome do favorecido</translation>
    </message>
    <message>
        <source>Start date</source>
        <translation>Data inicial</translation>
    </message>
    <message>
        <source>End date</source>
        <translation>Data final</translation>
    </message>
</context>
<context>
    <name>CsvFileRow</name>
    <message>
        <source>Open CSV…</source>
        <translation>Abrir CSV…</translation>
    </message>
    <message>
        <source>No file opened.</source>
        <translation>Nenhum arquivo aberto.</translation>
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
        <source>Reading cancelled</source>
        <translation>Leitura cancelada</translation>
    </message>
    <message>
        <source>Nothing was loaded from %1.</source>
        <translation>Nada foi carregado de %1.</translation>
    </message>
    <message>
        <source>This file cannot be read</source>
        <translation>Este arquivo não pode ser lido</translation>
    </message>
</context>
<context>
    <name>CsvFiles</name>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>Arquivos CSV (*.csv)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Todos os arquivos (*)</translation>
    </message>
    <message>
        <source>CSV for Excel (*.csv)</source>
        <translation>CSV para Excel (*.csv)</translation>
    </message>
    <message>
        <source>CSV, machine-readable (*.csv)</source>
        <translation>CSV para sistemas (*.csv)</translation>
    </message>
    <message>
        <source>The file %1 is open in another program (Excel?): close it and try again.</source>
        <translation>O arquivo %1 está aberto em outro programa (Excel?): feche-o e tente de novo.</translation>
    </message>
    <message>
        <source>The file %1 is read-only: save under another name.</source>
        <translation>O arquivo %1 é somente leitura: salve com outro nome.</translation>
    </message>
    <message>
        <source>The folder %1 cannot be written to: choose another folder.</source>
        <translation>Não é possível gravar na pasta %1: escolha outra pasta.</translation>
    </message>
    <message>
        <source>Could not write the file %1.</source>
        <translation>Não foi possível gravar o arquivo %1.</translation>
    </message>
    <message>
        <source>Could not save the file</source>
        <translation>Não foi possível salvar o arquivo</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>Id</translation>
    </message>
    <message>
        <source>Date and time</source>
        <translation>Data e hora</translation>
    </message>
    <message>
        <source>Credit or debit</source>
        <translation>Crédito ou débito</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>Amount with its sign</source>
        <translation>Valor com sinal</translation>
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
        <source>Counterparty&apos;s CPF/CNPJ</source>
        <translation>CPF/CNPJ da contraparte</translation>
    </message>
    <message>
        <source>endToEndId</source>
        <translation>endToEndId</translation>
    </message>
</context>
<context>
    <name>CsvReadingBar</name>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>Cancelando…</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>Lendo %1…</translation>
    </message>
</context>
<context>
    <name>DateEdit</name>
    <message>
        <source>“%1” is not a date: type day, month and year with four digits, as in %2.</source>
        <translation>“%1” não é uma data: digite dia, mês e ano com quatro dígitos, como em %2.</translation>
    </message>
</context>
<context>
    <name>DayItemsModel</name>
    <message>
        <source>Out or in</source>
        <translation>Saída ou entrada</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Payee or payer</source>
        <translation>Favorecido ou pagador</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>Counted</source>
        <translation>Considerado</translation>
    </message>
    <message>
        <source>Status or weight</source>
        <translation>Situação ou peso</translation>
    </message>
    <message>
        <source>Out</source>
        <translation>Saída</translation>
    </message>
    <message>
        <source>In</source>
        <translation>Entrada</translation>
    </message>
    <message>
        <source>%1, was due earlier</source>
        <translation>%1, vencia antes</translation>
    </message>
</context>
<context>
    <name>DayWarningBadge</name>
    <message>
        <source>⚠ Short on %1</source>
        <translation>⚠ Saldo curto em %1</translation>
    </message>
    <message>
        <source>Held on the day unless money comes in: move or cancel some.</source>
        <translation>Retidos no dia, a menos que entre dinheiro: adie ou cancele alguns.</translation>
    </message>
</context>
<context>
    <name>DefenseDialog</name>
    <message>
        <source>Defense for infraction %1</source>
        <translation>Defesa da infração %1</translation>
    </message>
    <message>
        <source>endToEndId</source>
        <translation>endToEndId</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>Defense deadline</source>
        <translation>Prazo para defesa</translation>
    </message>
    <message>
        <source>Defense</source>
        <translation>Defesa</translation>
    </message>
    <message>
        <source>Explain why the Pix was legitimate (contract, delivery, authorization).</source>
        <translation>Explique por que o Pix foi legítimo (contrato, entrega, autorização).</translation>
    </message>
    <message>
        <source>Attachments (file names, one per line; optional)</source>
        <translation>Anexos (nomes de arquivo, um por linha; opcional)</translation>
    </message>
    <message>
        <source>Submit defense</source>
        <translation>Enviar defesa</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>%1 / %2 characters</source>
        <translation>%1 / %2 caracteres</translation>
    </message>
</context>
<context>
    <name>DestinationDialog</name>
    <message>
        <source>Checking account</source>
        <translation>Conta corrente</translation>
    </message>
    <message>
        <source>Savings account</source>
        <translation>Conta poupança</translation>
    </message>
    <message>
        <source>Salary account</source>
        <translation>Conta salário</translation>
    </message>
    <message>
        <source>Payment account</source>
        <translation>Conta de pagamento</translation>
    </message>
    <message>
        <source>Destination of %1</source>
        <translation>Destino de %1</translation>
    </message>
    <message>
        <source>Pix key</source>
        <translation>Chave Pix</translation>
    </message>
    <message>
        <source>Bank account</source>
        <translation>Conta bancária</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>CPF, CNPJ, e-mail, +55 phone or random key</source>
        <translation>CPF, CNPJ, e-mail, telefone +55 ou chave aleatória</translation>
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
        <source>Another person approves this change before it counts; a payment to it needs one approval more for a while after that.</source>
        <translation>Outra pessoa aprova esta alteração antes que ela valha; por um tempo depois disso, um pagamento para este destino precisa de uma aprovação a mais.</translation>
    </message>
    <message>
        <source>Check a new key or account with the payee by phone, not by e-mail: a Pix cannot be called back.</source>
        <translation>Confirme uma chave ou conta nova com o favorecido por telefone, não por e-mail: um Pix não pode ser desfeito.</translation>
    </message>
</context>
<context>
    <name>DestinationsModel</name>
    <message>
        <source>Kind</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Key or account</source>
        <translation>Chave ou conta</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Situação</translation>
    </message>
    <message>
        <source>Last change</source>
        <translation>Última alteração</translation>
    </message>
</context>
<context>
    <name>DualControlPage</name>
    <message>
        <source>The team&apos;s policy asks for no approvals</source>
        <translation>A política da equipe não exige aprovações</translation>
    </message>
    <message>
        <source>Each payment is sent by the person who prepares it, who types its amount again. The team database&apos;s owner turns dual control on with treasury-admin policy; the policy is shown in Settings.</source>
        <translation>Cada pagamento é enviado pela pessoa que o prepara, que digita o valor novamente. O proprietário do banco de dados da equipe ativa o controle duplo com a política treasury-admin; a política é exibida em Configurações.</translation>
    </message>
    <message>
        <source>Approvals by a second person need a team database</source>
        <translation>Aprovações por uma segunda pessoa precisam de um banco de dados da equipe</translation>
    </message>
    <message>
        <source>This profile keeps its ledger in a file on this computer: each payment is reviewed and sent by the person who prepares it, who types its amount again. For dual control (one person prepares, another approves, and above an amount two approve), keep the ledger in the team&apos;s database: File ▸ Edit profile… ▸ Ledger.</source>
        <translation>Este perfil mantém seu livro-razão em um arquivo neste computador: cada pagamento é revisado e enviado pela pessoa que o prepara, que digita o valor novamente. Para controle duplo (uma pessoa prepara, outra aprova e, acima de um valor, duas aprovam), mantenha o livro-razão no banco de dados da equipe: Arquivo ▸ Editar perfil… ▸ Livro-razão.</translation>
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
    <name>EndpointConfirmation</name>
    <message>
        <source>The profile “%1” will send payments to these servers. Check them with your bank before you confirm.</source>
        <translation>O perfil “%1” vai enviar pagamentos para estes servidores. Confira-os com o seu banco antes de confirmar.</translation>
    </message>
    <message>
        <source>The bank addresses and CAs of the profile “%1” have not been confirmed on this computer yet. Nothing is sent to the bank until you confirm them: check them with your bank first.</source>
        <translation>Os endereços do banco e as CAs do perfil “%1” ainda não foram confirmados neste computador. Nada é enviado ao banco até você confirmá-los: confira-os com o seu banco antes.</translation>
    </message>
    <message>
        <source>The file of the profile “%1” was changed outside the app: a bank address or CA is not the one last confirmed on this computer. Nothing is sent to the bank until you confirm: check with your bank first.</source>
        <translation>O arquivo do perfil “%1” foi alterado fora do aplicativo: um endereço do banco ou uma CA não é o último confirmado neste computador. Nada é enviado ao banco até você confirmar: confira com o seu banco antes.</translation>
    </message>
    <message>
        <source>Confirm the bank&apos;s servers</source>
        <translation>Confirme os servidores do banco</translation>
    </message>
    <message>
        <source>Confirm and unlock</source>
        <translation>Confirmar e desbloquear</translation>
    </message>
    <message>
        <source>Confirm and save</source>
        <translation>Confirmar e salvar</translation>
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
        <source>none confirmed yet</source>
        <translation>nenhum confirmado ainda</translation>
    </message>
    <message>
        <source>Host: %1 → %2</source>
        <translation>Host: %1 → %2</translation>
    </message>
    <message>
        <source>Address: %1</source>
        <translation>Endereço: %1</translation>
    </message>
    <message>
        <source>CA: the system trust store</source>
        <translation>CA: o repositório de confiança do sistema</translation>
    </message>
    <message>
        <source>CA file: %1</source>
        <translation>Arquivo de CA: %1</translation>
    </message>
    <message>
        <source>%1, SHA-256:</source>
        <translation>%1, SHA-256:</translation>
    </message>
    <message>
        <source>The CA changed.</source>
        <translation>A CA mudou.</translation>
    </message>
    <message>
        <source>The CA did not change.</source>
        <translation>A CA não mudou.</translation>
    </message>
</context>
<context>
    <name>EnvironmentBadge</name>
    <message>
        <source>SANDBOX</source>
        <translation>SANDBOX</translation>
    </message>
    <message>
        <source>SANDBOX — test bank, no real money</source>
        <translation>SANDBOX — banco de testes, sem dinheiro real</translation>
    </message>
    <message>
        <source>PRODUCTION</source>
        <translation>PRODUÇÃO</translation>
    </message>
    <message>
        <source>PRODUCTION — the bank itself, real money</source>
        <translation>PRODUÇÃO — o próprio banco, dinheiro real</translation>
    </message>
</context>
<context>
    <name>ErrorBanner</name>
    <message>
        <source>with a transaction left open</source>
        <translation>com uma transação deixada aberta</translation>
    </message>
    <message>
        <source>with a failed transaction left open</source>
        <translation>com uma transação falha deixada aberta</translation>
    </message>
    <message>
        <source>running a statement</source>
        <translation>executando um comando</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>since %1</source>
        <translation>desde %1</translation>
    </message>
    <message>
        <source>Held up by another session</source>
        <translation>Bloqueado por outra sessão</translation>
    </message>
    <message>
        <source>Nothing was changed: the team database waited too long for another session. Try again in a moment.</source>
        <translation>Nada foi alterado: o banco de dados da equipe esperou demais por outra sessão. Tente de novo em instantes.</translation>
    </message>
    <message>
        <source>Nothing was changed: the team database waited for %1 and gave up. Try again once that session is done; if it stays, ask them (or the administrator) to end it.</source>
        <translation>Nada foi alterado: o banco de dados da equipe esperou por %1 e desistiu. Tente de novo quando essa sessão terminar; se ela continuar, peça a essa pessoa (ou ao administrador) que a encerre.</translation>
    </message>
    <message>
        <source>The profile file cannot be used</source>
        <translation>O arquivo de perfil não pode ser usado</translation>
    </message>
    <message>
        <source>Please check the team database&apos;s settings</source>
        <translation>Verifique as configurações do banco de dados da equipe</translation>
    </message>
    <message>
        <source>A password is needed</source>
        <translation>É preciso uma senha</translation>
    </message>
    <message>
        <source>The automatic proxy script cannot be used</source>
        <translation>O script automático de proxy não pode ser usado</translation>
    </message>
    <message>
        <source>The proxy asks for a login</source>
        <translation>O proxy pede um login</translation>
    </message>
    <message>
        <source>If this was a payment, it will be checked with the bank before anything is sent again.</source>
        <translation>Se era um pagamento, ele será conferido com o banco antes que qualquer coisa seja enviada de novo.</translation>
    </message>
    <message>
        <source>Refused by the team database</source>
        <translation>Recusado pelo banco de dados da equipe</translation>
    </message>
    <message>
        <source>No answer from the bank</source>
        <translation>Sem resposta do banco</translation>
    </message>
    <message>
        <source>The bank could not be reached</source>
        <translation>Não foi possível falar com o banco</translation>
    </message>
    <message>
        <source>The team database cannot be reached</source>
        <translation>Não é possível acessar o banco de dados da equipe</translation>
    </message>
    <message>
        <source>It could not be done</source>
        <translation>Não foi possível concluir</translation>
    </message>
    <message>
        <source>Please check the form</source>
        <translation>Verifique o formulário</translation>
    </message>
    <message>
        <source>The simulation did not happen</source>
        <translation>A simulação não foi feita</translation>
    </message>
    <message>
        <source>The certificate cannot be used</source>
        <translation>O certificado não pode ser usado</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>Dispensar</translation>
    </message>
    <message>
        <source>The simulation was not made</source>
        <translation>A simulação não foi feita</translation>
    </message>
</context>
<context>
    <name>ExpiryEdit</name>
    <message>
        <source>hour(s)</source>
        <translation>hora(s)</translation>
    </message>
    <message>
        <source>day(s)</source>
        <translation>dia(s)</translation>
    </message>
</context>
<context>
    <name>FailureWords</name>
    <message>
        <source>Something went wrong; the details are in the log.</source>
        <translation>Algo deu errado; os detalhes estão no registro (log).</translation>
    </message>
    <message>
        <source>Nothing is sent while the journal cannot be written; a payment already handed to the bank is looked up by its key once the database is back. The app keeps trying to reconnect.</source>
        <translation>Nada é enviado enquanto o diário não puder ser gravado; um pagamento já entregue ao banco é consultado pela sua chave quando o banco de dados voltar. O aplicativo continua tentando reconectar.</translation>
    </message>
    <message>
        <source>{file} does not exist (or no longer exists).</source>
        <translation>{file} não existe (ou não existe mais).</translation>
    </message>
    <message>
        <source>This computer does not allow access to {file}: choose another folder, or ask IT for access.</source>
        <translation>Este computador não permite acesso a {file}: escolha outra pasta ou peça acesso à TI.</translation>
    </message>
    <message>
        <source>{file} is open in another program: close it there and try again.</source>
        <translation>{file} está aberto em outro programa: feche-o lá e tente de novo.</translation>
    </message>
    <message>
        <source>{file} is a folder, not a file: choose a file name.</source>
        <translation>{file} é uma pasta, não um arquivo: escolha um nome de arquivo.</translation>
    </message>
    <message>
        <source>Part of the path of {file} is a file, not a folder.</source>
        <translation>Parte do caminho de {file} é um arquivo, não uma pasta.</translation>
    </message>
    <message>
        <source>The disk is full: {file} could not be written. Free some space or choose another disk.</source>
        <translation>O disco está cheio: não foi possível gravar {file}. Libere espaço ou escolha outro disco.</translation>
    </message>
    <message>
        <source>{file} is on a disk that cannot be written to: choose another folder.</source>
        <translation>{file} está em um disco que não aceita gravação: escolha outra pasta.</translation>
    </message>
    <message>
        <source>The name or path of {file} is too long: choose a shorter one.</source>
        <translation>O nome ou o caminho de {file} é longo demais: escolha um mais curto.</translation>
    </message>
    <message>
        <source>{file} is not a valid file name: choose another name.</source>
        <translation>{file} não é um nome de arquivo válido: escolha outro nome.</translation>
    </message>
    <message>
        <source>{file} already exists.</source>
        <translation>{file} já existe.</translation>
    </message>
    <message>
        <source>{file} could not be read or written; the details are in the log.</source>
        <translation>Não foi possível ler ou gravar {file}; os detalhes estão no registro (log).</translation>
    </message>
    <message>
        <source>the file</source>
        <translation>o arquivo</translation>
    </message>
    <message>
        <source>The bank{where} did not answer in time.</source>
        <translation>O banco{where} não respondeu a tempo.</translation>
    </message>
    <message>
        <source>The secure connection to the bank{where} failed: a certificate was not accepted (the bank&apos;s, or this computer&apos;s client certificate).</source>
        <translation>A conexão segura com o banco{where} falhou: um certificado não foi aceito (o do banco ou o certificado de cliente deste computador).</translation>
    </message>
    <message>
        <source>The bank{where} could not be reached: check the network, the address or a firewall.</source>
        <translation>Não foi possível alcançar o banco{where}: verifique a rede, o endereço ou um firewall.</translation>
    </message>
    <message>
        <source>The connection to the bank{where} was closed before an answer arrived; if this repeats, the bank may be refusing the client certificate.</source>
        <translation>A conexão com o banco{where} foi fechada antes de chegar uma resposta; se isso se repetir, o banco pode estar recusando o certificado de cliente.</translation>
    </message>
    <message>
        <source>No answer came from the bank{where}.</source>
        <translation>Nenhuma resposta veio do banco{where}.</translation>
    </message>
    <message>
        <source>The answer to the first attempt was lost and the bank already holds this request: it most likely went through, and it is looked up by its key.</source>
        <translation>A resposta da primeira tentativa se perdeu e o banco já tem esta solicitação: muito provavelmente ela foi aceita, e é consultada pela sua chave.</translation>
    </message>
    <message>
        <source>The answer to the first attempt was lost and the bank refused the retry: the first attempt may have gone through, and it is looked up before anything is sent again.</source>
        <translation>A resposta da primeira tentativa se perdeu e o banco recusou a nova tentativa: a primeira pode ter sido aceita, e é consultada antes que qualquer coisa seja enviada de novo.</translation>
    </message>
    <message>
        <source>The bank&apos;s answer could not be read; the details are in the log.</source>
        <translation>Não foi possível ler a resposta do banco; os detalhes estão no registro (log).</translation>
    </message>
    <message>
        <source>The bank&apos;s answer was larger than the app accepts; it was not read.</source>
        <translation>A resposta do banco era maior do que o aplicativo aceita; ela não foi lida.</translation>
    </message>
    <message>
        <source>The proxy {proxy} asks for a login and did not let the request through to the bank.</source>
        <translation>O proxy {proxy} pede um login e não deixou a solicitação chegar ao banco.</translation>
    </message>
    <message>
        <source>The proxy {proxy} refused to connect to the bank.</source>
        <translation>O proxy {proxy} recusou a conexão com o banco.</translation>
    </message>
    <message>
        <source>The proxy {proxy} did not answer in time.</source>
        <translation>O proxy {proxy} não respondeu a tempo.</translation>
    </message>
    <message>
        <source>The secure connection to the bank through the proxy {proxy} failed: a proxy that inspects secure connections must let the bank&apos;s addresses through untouched.</source>
        <translation>A conexão segura com o banco pelo proxy {proxy} falhou: um proxy que inspeciona conexões seguras precisa deixar passar os endereços do banco sem alteração.</translation>
    </message>
    <message>
        <source>The proxy {proxy} could not be reached: check the profile&apos;s proxy setting.</source>
        <translation>Não foi possível alcançar o proxy {proxy}: verifique a configuração de proxy do perfil.</translation>
    </message>
    <message>
        <source>The connection to the bank through the proxy {proxy} was closed before an answer arrived.</source>
        <translation>A conexão com o banco pelo proxy {proxy} foi fechada antes de chegar uma resposta.</translation>
    </message>
    <message>
        <source>{host} did not answer in time.</source>
        <translation>{host} não respondeu a tempo.</translation>
    </message>
    <message>
        <source>The secure connection to {host} failed: its certificate was not accepted.</source>
        <translation>A conexão segura com {host} falhou: o certificado dele não foi aceito.</translation>
    </message>
    <message>
        <source>{host} could not be reached: check the network, the address or a firewall.</source>
        <translation>Não foi possível alcançar {host}: verifique a rede, o endereço ou um firewall.</translation>
    </message>
    <message>
        <source>The connection to {host} was closed before an answer arrived.</source>
        <translation>A conexão com {host} foi fechada antes de chegar uma resposta.</translation>
    </message>
    <message>
        <source>the server</source>
        <translation>o servidor</translation>
    </message>
    <message>
        <source>The certificate file cannot be found: check the profile.</source>
        <translation>O arquivo do certificado não foi encontrado: verifique o perfil.</translation>
    </message>
    <message>
        <source>Wrong password for the certificate.</source>
        <translation>Senha errada para o certificado.</translation>
    </message>
    <message>
        <source>The certificate file is not a valid .pfx bundle (or it is damaged).</source>
        <translation>O arquivo do certificado não é um pacote .pfx válido (ou está danificado).</translation>
    </message>
    <message>
        <source>The certificate of {subject} expired on {date}: ask the bank for a new one.</source>
        <translation>O certificado de {subject} venceu em {date}: peça um novo ao banco.</translation>
    </message>
    <message>
        <source>The certificate of {subject} is valid only from {date}.</source>
        <translation>O certificado de {subject} só é válido a partir de {date}.</translation>
    </message>
    <message>
        <source>The certificate cannot be used.</source>
        <translation>O certificado não pode ser usado.</translation>
    </message>
</context>
<context>
    <name>HeldScheduleBanner</name>
    <message>
        <source>Was due on %1 — %2 to %3</source>
        <translation>Vencia em %1 — %2 para %3</translation>
    </message>
    <message>
        <source>%1 scheduled payment(s) wait for your decision: none leaves by itself.</source>
        <translation>%1 pagamento(s) agendado(s) aguardam sua decisão: nenhum sai sozinho.</translation>
    </message>
    <message>
        <source>Send now</source>
        <translation>Enviar agora</translation>
    </message>
    <message>
        <source>Move to…</source>
        <translation>Mover para…</translation>
    </message>
    <message>
        <source>Cancel…</source>
        <translation>Cancelar…</translation>
    </message>
    <message>
        <source>Cancel the payment</source>
        <translation>Cancelar o pagamento</translation>
    </message>
    <message>
        <source>Why is the payment to %1 of %2 cancelled? (kept in the audit)</source>
        <translation>Por que o pagamento a %1 de %2 é cancelado? (fica na auditoria)</translation>
    </message>
    <message>
        <source>Say why.</source>
        <translation>Diga o motivo.</translation>
    </message>
</context>
<context>
    <name>InfractionsModel</name>
    <message>
        <source>Infraction</source>
        <translation>Infração</translation>
    </message>
    <message>
        <source>Reported</source>
        <translation>Registrada em</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Motivo</translation>
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
        <source>Defense deadline</source>
        <translation>Prazo para defesa</translation>
    </message>
    <message>
        <source>The deadline to defend has passed.</source>
        <translation>O prazo para defesa terminou.</translation>
    </message>
    <message>
        <source>The deadline to defend is near.</source>
        <translation>O prazo para defesa está próximo do fim.</translation>
    </message>
    <message>
        <source>(passed)</source>
        <translation>(vencido)</translation>
    </message>
    <message>
        <source>(soon)</source>
        <translation>(próximo)</translation>
    </message>
</context>
<context>
    <name>InfractionsPanel</name>
    <message>
        <source>Every status</source>
        <translation>Todas as situações</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>Recarregar</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>Exibir</translation>
    </message>
    <message>
        <source>Yellow: deadline within 2 days · red: deadline passed</source>
        <translation>Amarelo: prazo em até 2 dias · vermelho: prazo vencido</translation>
    </message>
    <message>
        <source>Infraction</source>
        <translation>Infração</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>Id</translation>
    </message>
    <message>
        <source>endToEndId</source>
        <translation>endToEndId</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>Counterparty</source>
        <translation>Contraparte</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Motivo</translation>
    </message>
    <message>
        <source>Situation</source>
        <translation>Tipo de situação</translation>
    </message>
    <message>
        <source>Reported by</source>
        <translation>Registrada por</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Situação</translation>
    </message>
    <message>
        <source>Defense deadline</source>
        <translation>Prazo para defesa</translation>
    </message>
    <message>
        <source>Analysis result</source>
        <translation>Resultado da análise</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Descrição</translation>
    </message>
    <message>
        <source>Submitted</source>
        <translation>Enviada em</translation>
    </message>
    <message>
        <source>Defense</source>
        <translation>Defesa</translation>
    </message>
    <message>
        <source>Attachments</source>
        <translation>Anexos</translation>
    </message>
    <message>
        <source>Submit a defense…</source>
        <translation>Enviar uma defesa…</translation>
    </message>
    <message>
        <source>Defenses</source>
        <translation>Defesas</translation>
    </message>
    <message>
        <source>(passed)</source>
        <translation>(vencido)</translation>
    </message>
    <message>
        <source>(last day)</source>
        <translation>(último dia)</translation>
    </message>
    <message>
        <source>(%1 day(s) left)</source>
        <translation>(faltam %1 dia(s))</translation>
    </message>
    <message>
        <source>(pending)</source>
        <translation>(pendente)</translation>
    </message>
</context>
<context>
    <name>JourneyChargeForm</name>
    <message>
        <source>shown to the payer (optional)</source>
        <translation>exibida ao pagador (opcional)</translation>
    </message>
    <message>
        <source> hour(s)</source>
        <translation> hora(s)</translation>
    </message>
    <message>
        <source> day(s)</source>
        <translation> dia(s)</translation>
    </message>
    <message>
        <source>Amount of the charge</source>
        <translation>Valor da cobrança</translation>
    </message>
    <message>
        <source>Pix key credited</source>
        <translation>Chave Pix creditada</translation>
    </message>
    <message>
        <source>Message to the payer</source>
        <translation>Mensagem ao pagador</translation>
    </message>
    <message>
        <source>Expires in</source>
        <translation>Expira em</translation>
    </message>
    <message>
        <source>Due date</source>
        <translation>Vencimento</translation>
    </message>
    <message>
        <source>Payable after the due date for</source>
        <translation>Pagável após o vencimento por</translation>
    </message>
    <message>
        <source>The payer pays this charge now and, in the same scan, authorises the recurrence.</source>
        <translation>O pagador paga esta cobrança agora e, na mesma leitura, autoriza a recorrência.</translation>
    </message>
    <message>
        <source>The payer pays this charge by its due date and, in the same scan, authorises the recurrence.</source>
        <translation>O pagador paga esta cobrança até o vencimento e, na mesma leitura, autoriza a recorrência.</translation>
    </message>
    <message>
        <source>Enter the amount.</source>
        <translation>Informe o valor.</translation>
    </message>
    <message>
        <source>The amount must be above zero.</source>
        <translation>O valor deve ser maior que zero.</translation>
    </message>
    <message>
        <source>The account has no Pix key: add one to the profile first.</source>
        <translation>A conta não tem chave Pix: cadastre uma no perfil primeiro.</translation>
    </message>
    <message>
        <source>The due date cannot be in the past.</source>
        <translation>O vencimento não pode estar no passado.</translation>
    </message>
    <message>
        <source>Charge paid with the QR Code</source>
        <translation>Cobrança paga com o QR Code</translation>
    </message>
    <message>
        <source>Charge expires in</source>
        <translation>A cobrança expira em</translation>
    </message>
    <message>
        <source>%1 hour(s)</source>
        <translation>%1 hora(s)</translation>
    </message>
</context>
<context>
    <name>LedgerPanel</name>
    <message>
        <source>Ledger</source>
        <translation>Registro de operações</translation>
    </message>
    <message>
        <source>Where it lives</source>
        <translation>Onde fica</translation>
    </message>
    <message>
        <source>Link</source>
        <translation>Conexão</translation>
    </message>
    <message>
        <source>Dual control</source>
        <translation>Controle duplo</translation>
    </message>
    <message>
        <source>Needs a team database: on this computer the review (typing the amount) is the only check before a payment is sent.</source>
        <translation>Requer um banco de dados da equipe: neste computador a revisão (digitar o valor) é a única verificação antes de um pagamento ser enviado.</translation>
    </message>
    <message>
        <source>Off: the team&apos;s policy asks for no approvals.</source>
        <translation>Desativado: a política da equipe não exige aprovações.</translation>
    </message>
    <message>
        <source>at the end of the Brasília day of the first approval</source>
        <translation>no fim do dia de Brasília da primeira aprovação</translation>
    </message>
    <message>
        <source>%1 h after the first approval</source>
        <translation>%1 h após a primeira aprovação</translation>
    </message>
    <message>
        <source>%1 approval(s) by someone other than the maker; %2 above %3; %4 more for a payee never paid; approvals expire %5. Policy version %6, set by %7 (treasury-admin policy).</source>
        <translation>%1 aprovação(ões) por alguém diferente de quem preparou; %2 acima de %3; mais %4 para um favorecido nunca pago; as aprovações expiram %5. Política versão %6, definida por %7 (política treasury-admin).</translation>
    </message>
    <message>
        <source>This computer: %1</source>
        <translation>Este computador: %1</translation>
    </message>
    <message>
        <source>none</source>
        <translation>nenhum</translation>
    </message>
    <message>
        <source>Team database: %1 — roles %2, PostgreSQL %3</source>
        <translation>Banco de dados da equipe: %1 — papéis %2, PostgreSQL %3</translation>
    </message>
    <message>
        <source>The team audit was rewritten: row %1 is no longer what this computer saw. Tell the administrator (treasury-admin verify-audit).</source>
        <translation>A auditoria da equipe foi reescrita: a linha %1 não é mais a que este computador viu. Avise o administrador (treasury-admin verify-audit).</translation>
    </message>
</context>
<context>
    <name>LocationsModel</name>
    <message>
        <source>txid</source>
        <translation>txid</translation>
    </message>
    <message>
        <source>idRec</source>
        <translation>idRec</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>Id</translation>
    </message>
    <message>
        <source>Location</source>
        <translation>Localização</translation>
    </message>
    <message>
        <source>tipoCob</source>
        <translation>tipoCob</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Criada em</translation>
    </message>
</context>
<context>
    <name>LocationsPanel</name>
    <message>
        <source>Unlink from its charge…</source>
        <translation>Desvincular da cobrança…</translation>
    </message>
    <message>
        <source>Unlink from its recurrence…</source>
        <translation>Desvincular da recorrência…</translation>
    </message>
    <message>
        <source>Immediate charge (cob)</source>
        <translation>Cobrança imediata (cob)</translation>
    </message>
    <message>
        <source>Charge with a due date (cobv)</source>
        <translation>Cobrança com vencimento (cobv)</translation>
    </message>
    <message>
        <source>Create location</source>
        <translation>Criar localização</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Atualizar</translation>
    </message>
    <message>
        <source>Created from</source>
        <translation>Criadas de</translation>
    </message>
    <message>
        <source>to</source>
        <translation>até</translation>
    </message>
    <message>
        <source>Location %1 created: %2</source>
        <translation>Localização %1 criada: %2</translation>
    </message>
    <message>
        <source>Location %1 unlinked.</source>
        <translation>Localização %1 desvinculada.</translation>
    </message>
    <message>
        <source>Unlink location %1 from recurrence %2? The recurrence keeps its status but loses this QR Code address.</source>
        <translation>Desvincular a localização %1 da recorrência %2? A recorrência mantém sua situação, mas perde este endereço de QR Code.</translation>
    </message>
    <message>
        <source>Unlink location %1 from charge %2? The charge loses this QR Code address: a QR Code already printed with it stops working.</source>
        <translation>Desvincular a localização %1 da cobrança %2? A cobrança perde este endereço de QR Code: um QR Code já impresso com ele deixa de funcionar.</translation>
    </message>
    <message>
        <source>Unlink the location</source>
        <translation>Desvincular a localização</translation>
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
        <source>Calendar</source>
        <translation>Calendário</translation>
    </message>
    <message>
        <source>Payees</source>
        <translation>Favorecidos</translation>
    </message>
    <message>
        <source>Approvals</source>
        <translation>Aprovações</translation>
    </message>
    <message>
        <source>⚠ %1 infraction(s) to answer</source>
        <translation>⚠ %1 infração(ões) a responder</translation>
    </message>
    <message>
        <source>Nearest defense deadline: %1, %2 day(s) left (Settings ▸ Infractions)</source>
        <translation>Prazo de defesa mais próximo: %1, faltam %2 dia(s) (Configurações ▸ Infrações)</translation>
    </message>
    <message>
        <source>%1 to approve</source>
        <translation>%1 para aprovar</translation>
    </message>
    <message>
        <source>%1 payment(s) waiting for your approval</source>
        <translation>%1 pagamento(s) aguardando sua aprovação</translation>
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
        <source>&amp;User guide</source>
        <translation>&amp;Guia do usuário</translation>
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
        <source>The user guide is not installed.</source>
        <translation>O guia do usuário não está instalado.</translation>
    </message>
    <message>
        <source>About Treasury</source>
        <translation>Sobre a Tesouraria</translation>
    </message>
</context>
<context>
    <name>ManagedSettingsPanel</name>
    <message>
        <source>Your organisation manages these settings on this computer. Locked ones cannot be changed here; ask your IT department.</source>
        <translation>Sua organização gerencia estas configurações neste computador. As travadas não podem ser mudadas aqui; fale com o seu departamento de TI.</translation>
    </message>
    <message>
        <source>Setting</source>
        <translation>Configuração</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>Set by</source>
        <translation>Definida por</translation>
    </message>
    <message>
        <source>Locked</source>
        <translation>Travada</translation>
    </message>
    <message>
        <source>Not recognised by this version, so not applied: %1</source>
        <translation>Não reconhecidas por esta versão, portanto não aplicadas: %1</translation>
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
    <name>MoveDialog</name>
    <message>
        <source>Move the payment</source>
        <translation>Mover o pagamento</translation>
    </message>
    <message>
        <source>Payment to %1, due on %2.</source>
        <translation>Pagamento a %1, previsto para %2.</translation>
    </message>
    <message>
        <source>New pay date</source>
        <translation>Nova data de pagamento</translation>
    </message>
</context>
<context>
    <name>NewCobrPages</name>
    <message>
        <source>Earliest due date today: %1 (2 business days ahead).</source>
        <translation>Vencimento mais próximo possível hoje: %1 (daqui a 2 dias úteis).</translation>
    </message>
    <message>
        <source>The recurrence&apos;s fixed amount.</source>
        <translation>O valor fixo da recorrência.</translation>
    </message>
    <message>
        <source>at least %1</source>
        <translation>no mínimo %1</translation>
    </message>
    <message>
        <source>Message shown to the payer (optional)</source>
        <translation>Mensagem exibida ao pagador (opcional)</translation>
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
        <source>Message</source>
        <translation>Mensagem</translation>
    </message>
    <message>
        <source>Credit to branch</source>
        <translation>Agência de crédito</translation>
    </message>
    <message>
        <source>Credit to account</source>
        <translation>Conta de crédito</translation>
    </message>
    <message>
        <source>Account type</source>
        <translation>Tipo de conta</translation>
    </message>
    <message>
        <source>Review…</source>
        <translation>Conferir…</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fechar</translation>
    </message>
    <message>
        <source>Payer (debtor)</source>
        <translation>Pagador (devedor)</translation>
    </message>
    <message>
        <source>Document</source>
        <translation>CPF/CNPJ</translation>
    </message>
    <message>
        <source>Cycle</source>
        <translation>Ciclo</translation>
    </message>
    <message>
        <source>Credited account</source>
        <translation>Conta creditada</translation>
    </message>
    <message>
        <source>Creating this charge schedules a debit of this amount from the payer&apos;s account on the due date, under the recurrence the payer authorized.</source>
        <translation>Ao criar esta cobrança, será agendado o débito deste valor na conta do pagador no vencimento, conforme a recorrência autorizada por ele.</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>Voltar</translation>
    </message>
    <message>
        <source>Create recurring charge</source>
        <translation>Criar cobrança recorrente</translation>
    </message>
    <message>
        <source>Review the recurring charge</source>
        <translation>Conferir a cobrança recorrente</translation>
    </message>
    <message>
        <source>Amount to be charged</source>
        <translation>Valor a ser cobrado</translation>
    </message>
    <message>
        <source>Recurring charge created: %1.</source>
        <translation>Cobrança recorrente criada: %1.</translation>
    </message>
    <message>
        <source>No answer from the bank</source>
        <translation>Sem resposta do banco</translation>
    </message>
    <message>
        <source>The bank&apos;s answer to the recurring charge %1 was lost. &quot;Create&quot; asks the bank for %1 first and sends it again (the same txid) only if the bank does not have it: it is never created twice.</source>
        <translation>A resposta do banco para a cobrança recorrente %1 se perdeu. &quot;Criar&quot; primeiro consulta %1 no banco e só a envia de novo (com o mesmo txid) se o banco não a tiver: ela nunca é criada duas vezes.</translation>
    </message>
</context>
<context>
    <name>NotificationsStatusLabel</name>
    <message>
        <source>Until then the app asks the bank for each payment&apos;s status, as without a team database.</source>
        <translation>Até lá o aplicativo consulta o banco sobre a situação de cada pagamento, como sem um banco da equipe.</translation>
    </message>
    <message>
        <source>Notifications: live</source>
        <translation>Notificações: ao vivo</translation>
    </message>
    <message>
        <source>The team&apos;s webhook receiver brings the bank&apos;s notifications: payments, charges and recurrences change here as the bank tells. The app still asks the bank every %1 minutes, in case a notification was lost.</source>
        <translation>O receptor de webhooks da equipe traz as notificações do banco: pagamentos, cobranças e recorrências mudam aqui assim que o banco avisa. O aplicativo ainda consulta o banco a cada %1 minutos, caso alguma notificação se perca.</translation>
    </message>
    <message>
        <source>nothing yet</source>
        <translation>nada ainda</translation>
    </message>
    <message>
        <source>Notifications: polling</source>
        <translation>Notificações: consultando</translation>
    </message>
    <message>
        <source>Notifications: polling (no receiver)</source>
        <translation>Notificações: consultando o banco (sem receptor)</translation>
    </message>
    <message>
        <source>No webhook receiver has ever run on this team database.</source>
        <translation>Nenhum receptor de webhooks jamais funcionou neste banco da equipe.</translation>
    </message>
    <message>
        <source>Notifications: receiver silent</source>
        <translation>Notificações: receptor em silêncio</translation>
    </message>
    <message>
        <source>Notifications: polling (receiver silent since %1)</source>
        <translation>Notificações: consultando o banco (receptor em silêncio desde %1)</translation>
    </message>
    <message>
        <source>The team&apos;s webhook receiver has been silent since %1.</source>
        <translation>O receptor de webhooks da equipe está em silêncio desde %1.</translation>
    </message>
    <message>
        <source>Notifications: offline</source>
        <translation>Notificações: fora do ar</translation>
    </message>
    <message>
        <source>Notifications: polling (team database offline)</source>
        <translation>Notificações: consultando o banco (banco da equipe fora do ar)</translation>
    </message>
    <message>
        <source>The team database is offline (%1): no notification can reach this desktop.</source>
        <translation>O banco da equipe está fora do ar (%1): nenhuma notificação chega a este computador.</translation>
    </message>
    <message>
        <source>not reachable</source>
        <translation>inacessível</translation>
    </message>
    <message>
        <source>Notifications: checking…</source>
        <translation>Notificações: verificando…</translation>
    </message>
    <message>
        <source>nothing received yet</source>
        <translation>nada recebido ainda</translation>
    </message>
    <message>
        <source>last %1 s ago</source>
        <translation>última há %1 s</translation>
    </message>
    <message>
        <source>last %1 min ago</source>
        <translation>última há %1 min</translation>
    </message>
    <message>
        <source>last %1 h ago</source>
        <translation>última há %1 h</translation>
    </message>
    <message>
        <source>last %1 days ago</source>
        <translation>última há %1 dias</translation>
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
        <source>Pay on</source>
        <translation>Pagar em</translation>
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
        <source>Refused</source>
        <translation>Recusado</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Archived</source>
        <translation>Arquivado</translation>
    </message>
</context>
<context>
    <name>PayeeDialog</name>
    <message>
        <source>Payee</source>
        <translation>Favorecido</translation>
    </message>
    <message>
        <source>New payee</source>
        <translation>Novo favorecido</translation>
    </message>
    <message>
        <source>CPF or CNPJ (the new alphanumeric CNPJ too)</source>
        <translation>CPF ou CNPJ (também o novo CNPJ alfanumérico)</translation>
    </message>
    <message>
        <source>supplier, employee, cost centre…</source>
        <translation>fornecedor, funcionário, centro de custo…</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nome</translation>
    </message>
    <message>
        <source>CPF / CNPJ</source>
        <translation>CPF / CNPJ</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>Etiquetas</translation>
    </message>
</context>
<context>
    <name>PayeeHistoryButton</name>
    <message>
        <source>Payee&apos;s history…</source>
        <translation>Histórico do favorecido…</translation>
    </message>
</context>
<context>
    <name>PayeeHistoryDialog</name>
    <message>
        <source>Payee&apos;s history</source>
        <translation>Histórico do favorecido</translation>
    </message>
    <message>
        <source>Reading the payments…</source>
        <translation>Lendo os pagamentos…</translation>
    </message>
    <message>
        <source>%1 — not in the payee registry</source>
        <translation>%1 — fora do cadastro de favorecidos</translation>
    </message>
    <message>
        <source>Since %1: %2 paid, %3 on its way.</source>
        <translation>Desde %1: %2 pagos, %3 a caminho.</translation>
    </message>
    <message>
        <source>Last payments (%1 of %2):</source>
        <translation>Últimos pagamentos (%1 de %2):</translation>
    </message>
    <message>
        <source>Nothing was paid to them yet.</source>
        <translation>Nada foi pago a este favorecido ainda.</translation>
    </message>
</context>
<context>
    <name>PayeePaymentsModel</name>
    <message>
        <source>When</source>
        <translation>Quando</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>Paid to</source>
        <translation>Pago para</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Situação</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Descrição</translation>
    </message>
</context>
<context>
    <name>PayeePicker</name>
    <message>
        <source>Type a payee&apos;s name, CPF/CNPJ or Pix key</source>
        <translation>Digite o nome, CPF/CNPJ ou chave Pix do favorecido</translation>
    </message>
    <message>
        <source>Loading the payee registry…</source>
        <translation>Carregando o cadastro de favorecidos…</translation>
    </message>
</context>
<context>
    <name>PayeeWords</name>
    <message>
        <source>New</source>
        <translation>Novo</translation>
    </message>
    <message>
        <source>Verified</source>
        <translation>Verificado</translation>
    </message>
    <message>
        <source>Changed</source>
        <translation>Alterado</translation>
    </message>
    <message>
        <source>Blocked</source>
        <translation>Bloqueado</translation>
    </message>
    <message>
        <source>Destination added</source>
        <translation>Destino adicionado</translation>
    </message>
    <message>
        <source>Destination changed</source>
        <translation>Destino alterado</translation>
    </message>
    <message>
        <source>Destination unblocked</source>
        <translation>Destino desbloqueado</translation>
    </message>
    <message>
        <source>Destination blocked</source>
        <translation>Destino bloqueado</translation>
    </message>
    <message>
        <source>Confirmed by the bank</source>
        <translation>Confirmado pelo banco</translation>
    </message>
    <message>
        <source>The bank named someone else</source>
        <translation>O banco indicou outra pessoa</translation>
    </message>
    <message>
        <source>Waiting for approval</source>
        <translation>Aguardando aprovação</translation>
    </message>
    <message>
        <source>Approved</source>
        <translation>Aprovada</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>Rejeitada</translation>
    </message>
    <message>
        <source>Withdrawn</source>
        <translation>Retirada</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Feito</translation>
    </message>
    <message>
        <source>Known and verified</source>
        <translation>Conhecido e verificado</translation>
    </message>
    <message>
        <source>New destination</source>
        <translation>Destino novo</translation>
    </message>
    <message>
        <source>Changed since confirmed</source>
        <translation>Alterado desde a confirmação</translation>
    </message>
    <message>
        <source>Changed recently</source>
        <translation>Alterado recentemente</translation>
    </message>
    <message>
        <source>Registered to another payee</source>
        <translation>Registrado para outro favorecido</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>Desconhecido</translation>
    </message>
    <message>
        <source>Pix key</source>
        <translation>Chave Pix</translation>
    </message>
    <message>
        <source>Bank account</source>
        <translation>Conta bancária</translation>
    </message>
    <message>
        <source>Date and time</source>
        <translation>Data e hora</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>Paid to</source>
        <translation>Pago para</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Situação</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Descrição</translation>
    </message>
    <message>
        <source>endToEndId</source>
        <translation>endToEndId</translation>
    </message>
    <message>
        <source>Our reference</source>
        <translation>Nossa referência</translation>
    </message>
    <message>
        <source>Receipt</source>
        <translation>Comprovante</translation>
    </message>
    <message>
        <source>Statement of account</source>
        <translation>Extrato do favorecido</translation>
    </message>
    <message>
        <source>Payee</source>
        <translation>Favorecido</translation>
    </message>
    <message>
        <source>CPF/CNPJ</source>
        <translation>CPF/CNPJ</translation>
    </message>
    <message>
        <source>Period</source>
        <translation>Período</translation>
    </message>
    <message>
        <source>Made on</source>
        <translation>Gerado em</translation>
    </message>
    <message>
        <source>Payments</source>
        <translation>Pagamentos</translation>
    </message>
    <message>
        <source>Total settled</source>
        <translation>Total liquidado</translation>
    </message>
    <message>
        <source>Total on its way</source>
        <translation>Total a caminho</translation>
    </message>
    <message>
        <source>Receipts</source>
        <translation>Comprovantes</translation>
    </message>
    <message>
        <source>%1 to %2</source>
        <translation>%1 a %2</translation>
    </message>
    <message>
        <source>from %1</source>
        <translation>a partir de %1</translation>
    </message>
    <message>
        <source>until %1</source>
        <translation>até %1</translation>
    </message>
    <message>
        <source>every payment</source>
        <translation>todos os pagamentos</translation>
    </message>
</context>
<context>
    <name>PayeesModel</name>
    <message>
        <source>Name</source>
        <translation>Nome</translation>
    </message>
    <message>
        <source>CPF / CNPJ</source>
        <translation>CPF / CNPJ</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>Etiquetas</translation>
    </message>
</context>
<context>
    <name>PayeesTab</name>
    <message>
        <source>Search by name, CPF/CNPJ, Pix key, account or tag</source>
        <translation>Buscar por nome, CPF/CNPJ, chave Pix, conta ou etiqueta</translation>
    </message>
    <message>
        <source>New payee…</source>
        <translation>Novo favorecido…</translation>
    </message>
    <message>
        <source>Import CSV…</source>
        <translation>Importar CSV…</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>Exportar CSV…</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>Editar…</translation>
    </message>
    <message>
        <source>Add destination…</source>
        <translation>Adicionar destino…</translation>
    </message>
    <message>
        <source>Change…</source>
        <translation>Alterar…</translation>
    </message>
    <message>
        <source>Block…</source>
        <translation>Bloquear…</translation>
    </message>
    <message>
        <source>Unblock</source>
        <translation>Desbloquear</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Histórico</translation>
    </message>
    <message>
        <source>Statement of account…</source>
        <translation>Extrato do favorecido…</translation>
    </message>
    <message>
        <source>Every payment to this payee over a period, with the receipts, in one .zip</source>
        <translation>Todos os pagamentos a este favorecido num período, com os comprovantes, em um único .zip</translation>
    </message>
    <message>
        <source>Approve</source>
        <translation>Aprovar</translation>
    </message>
    <message>
        <source>Reject…</source>
        <translation>Rejeitar…</translation>
    </message>
    <message>
        <source>Withdraw…</source>
        <translation>Retirar…</translation>
    </message>
    <message>
        <source>Changes waiting for another person&apos;s approval: %1</source>
        <translation>Alterações aguardando a aprovação de outra pessoa: %1</translation>
    </message>
    <message>
        <source>Since %1: %2 paid, %3 on its way.</source>
        <translation>Desde %1: %2 pagos, %3 a caminho.</translation>
    </message>
    <message>
        <source>Last payments (%1 of %2).</source>
        <translation>Últimos pagamentos (%1 de %2).</translation>
    </message>
    <message>
        <source>Nothing was paid to them yet.</source>
        <translation>Nada foi pago a este favorecido ainda.</translation>
    </message>
    <message>
        <source>Pick a payee, or register a new one.</source>
        <translation>Escolha um favorecido ou cadastre um novo.</translation>
    </message>
    <message>
        <source>Block</source>
        <translation>Bloquear</translation>
    </message>
    <message>
        <source>Why is it blocked?</source>
        <translation>Por que está bloqueado?</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Motivo</translation>
    </message>
    <message>
        <source>Why?</source>
        <translation>Por quê?</translation>
    </message>
    <message>
        <source>Import payees</source>
        <translation>Importar favorecidos</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>Arquivos CSV (*.csv)</translation>
    </message>
    <message>
        <source>Line %1 (%2): %3</source>
        <translation>Linha %1 (%2): %3</translation>
    </message>
    <message>
        <source>The file was not imported</source>
        <translation>O arquivo não foi importado</translation>
    </message>
    <message>
        <source>Export payees</source>
        <translation>Exportar favorecidos</translation>
    </message>
    <message>
        <source>%1 payment(s) and %2 receipt(s) exported to %3</source>
        <translation>%1 pagamento(s) e %2 comprovante(s) exportados para %3</translation>
    </message>
    <message>
        <source>%1 receipt(s) kept by the app could not be read (missing or damaged): ask the bank for them again.</source>
        <translation>%1 comprovante(s) guardado(s) pelo app não puderam ser lidos (ausentes ou danificados): peça-os de novo ao banco.</translation>
    </message>
    <message>
        <source>Statement of account saved</source>
        <translation>Extrato do favorecido salvo</translation>
    </message>
    <message>
        <source>Save the statement of account</source>
        <translation>Salvar o extrato do favorecido</translation>
    </message>
    <message>
        <source>ZIP files (*.zip)</source>
        <translation>Arquivos ZIP (*.zip)</translation>
    </message>
</context>
<context>
    <name>PayerAccountForm</name>
    <message>
        <source>CPF or CNPJ</source>
        <translation>CPF ou CNPJ</translation>
    </message>
    <message>
        <source>Bank name or code, or its ISPB (8 characters)</source>
        <translation>Nome ou código do banco, ou o ISPB (8 caracteres)</translation>
    </message>
    <message>
        <source>optional</source>
        <translation>opcional</translation>
    </message>
    <message>
        <source> day(s)</source>
        <translation> dia(s)</translation>
    </message>
    <message>
        <source>The payer&apos;s bank asks them to authorise the recurrence in its app. The account holder must be the debtor.</source>
        <translation>O banco do pagador solicita que ele autorize a recorrência no aplicativo do banco. O titular da conta deve ser o devedor.</translation>
    </message>
    <message>
        <source>Payer&apos;s CPF/CNPJ</source>
        <translation>CPF/CNPJ do pagador</translation>
    </message>
    <message>
        <source>Payer&apos;s bank</source>
        <translation>Banco do pagador</translation>
    </message>
    <message>
        <source>Pick the payer&apos;s bank from the list, or type its ISPB (8 digits or capital letters).</source>
        <translation>Escolha o banco do pagador na lista ou digite o ISPB dele (8 dígitos ou letras maiúsculas).</translation>
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
        <source>Request expires in</source>
        <translation>A solicitação expira em</translation>
    </message>
    <message>
        <source>A branch has up to 4 digits.</source>
        <translation>Uma agência tem até 4 dígitos.</translation>
    </message>
    <message>
        <source>Enter the payer&apos;s account.</source>
        <translation>Informe a conta do pagador.</translation>
    </message>
    <message>
        <source>Request sent to</source>
        <translation>Solicitação enviada para</translation>
    </message>
    <message>
        <source>%1 day(s)</source>
        <translation>%1 dia(s)</translation>
    </message>
</context>
<context>
    <name>PaymentStatusLabel</name>
    <message>
        <source>Scheduled for %1: %2 to %3</source>
        <translation>Agendado para %1: %2 a %3</translation>
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
        <source>Search payee, key, amount, endToEndId</source>
        <translation>Buscar favorecido, chave, valor, endToEndId</translation>
    </message>
    <message>
        <source>Only the payments of one batch</source>
        <translation>Somente os pagamentos de um lote</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Exportar…</translation>
    </message>
    <message>
        <source>Save the payments shown as a CSV file</source>
        <translation>Salvar os pagamentos mostrados como arquivo CSV</translation>
    </message>
    <message>
        <source>All batches</source>
        <translation>Todos os lotes</translation>
    </message>
    <message>
        <source>Batch of %1 (%2 payments, %3)</source>
        <translation>Lote de %1 (%2 pagamentos, %3)</translation>
    </message>
    <message>
        <source>Batch %1</source>
        <translation>Lote %1</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>Data</translation>
    </message>
    <message>
        <source>Key or account</source>
        <translation>Chave ou conta</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Situação</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Descrição</translation>
    </message>
    <message>
        <source>Batch</source>
        <translation>Lote</translation>
    </message>
    <message>
        <source>Export payments</source>
        <translation>Exportar pagamentos</translation>
    </message>
    <message>
        <source>Exported</source>
        <translation>Exportado</translation>
    </message>
    <message>
        <source>%1 payment(s) saved to %2</source>
        <translation>%1 pagamento(s) salvo(s) em %2</translation>
    </message>
    <message>
        <source>Pay on</source>
        <translation>Pagar em</translation>
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
        <source>Bank&apos;s word</source>
        <translation>Palavra do banco</translation>
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
        <source>Edit series…</source>
        <translation>Editar série…</translation>
    </message>
    <message>
        <source>End series…</source>
        <translation>Encerrar série…</translation>
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
        <source>Pay on</source>
        <translation>Pagar em</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>Agendamento</translation>
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
        <source>Not confirmed by the bank — waiting for you</source>
        <translation>Não confirmado pelo banco — aguardando você</translation>
    </message>
    <message>
        <source>UNKNOWN — checking with the bank</source>
        <translation>DESCONHECIDO — consultando o banco</translation>
    </message>
    <message>
        <source>This key was paid to %1 before (%2); this payment went to %3.</source>
        <translation>Esta chave foi paga a %1 antes (%2); este pagamento foi para %3.</translation>
    </message>
</context>
<context>
    <name>PayoutBatchDialog</name>
    <message>
        <source>Pix payouts from a CSV file</source>
        <translation>Pagamentos Pix por arquivo CSV</translation>
    </message>
    <message>
        <source>Save template…</source>
        <translation>Salvar modelo…</translation>
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
        <source>Check</source>
        <translation>Verificação</translation>
    </message>
    <message>
        <source>Payments to send</source>
        <translation>Pagamentos a enviar</translation>
    </message>
    <message>
        <source>Batch label (optional), e.g. Suppliers, 2nd fortnight of November</source>
        <translation>Nome do lote (opcional), ex.: Fornecedores, 2ª quinzena de novembro</translation>
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
        <source>Pay on</source>
        <translation>Pagar em</translation>
    </message>
    <message>
        <source>Pay later, on</source>
        <translation>Pagar depois, em</translation>
    </message>
    <message>
        <source>Registry</source>
        <translation>Cadastro</translation>
    </message>
    <message>
        <source>Or double-click the row</source>
        <translation>Ou clique duas vezes na linha</translation>
    </message>
    <message>
        <source>(rows with a date of their own keep it)</source>
        <translation>(linhas com data própria a mantêm)</translation>
    </message>
    <message>
        <source>Pasted text</source>
        <translation>Texto colado</translation>
    </message>
    <message>
        <source>(whole line)</source>
        <translation>(linha inteira)</translation>
    </message>
    <message>
        <source>Now</source>
        <translation>Agora</translation>
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
        <source>The file has no rows: there is nothing to pay.</source>
        <translation>O arquivo não tem linhas: não há nada a pagar.</translation>
    </message>
    <message>
        <source>%1 row(s) with errors: fix the file, or leave them out.</source>
        <translation>%1 linha(s) com erros: corrija o arquivo ou deixe-as de fora.</translation>
    </message>
    <message>
        <source>The file&apos;s first line (its column names) has errors: fix the file.</source>
        <translation>A primeira linha do arquivo (os nomes das colunas) tem erros: corrija o arquivo.</translation>
    </message>
    <message>
        <source>Already paid alone on %1</source>
        <translation>Já pago avulso em %1</translation>
    </message>
    <message>
        <source>This batch was already sent on %1 (Brasília) by %2: %3 payment(s), %4 (%5). Sending it again pays everyone again.</source>
        <translation>Este lote já foi enviado em %1 (Brasília) por %2: %3 pagamento(s), %4 (%5). Enviá-lo de novo paga todos outra vez.</translation>
    </message>
    <message>
        <source>the same file</source>
        <translation>o mesmo arquivo</translation>
    </message>
    <message>
        <source>the same payees and amounts</source>
        <translation>os mesmos favorecidos e valores</translation>
    </message>
    <message>
        <source>Sent %1 times in all recently.</source>
        <translation>Enviado %1 vezes ao todo recentemente.</translation>
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
        <source>Send this batch again: pay these %1 payment(s) a second time</source>
        <translation>Enviar este lote de novo: pagar estes %1 pagamento(s) uma segunda vez</translation>
    </message>
    <message>
        <source>Submit %1 payment(s) for approval</source>
        <translation>Enviar %1 pagamento(s) para aprovação</translation>
    </message>
    <message>
        <source>Send %1 payment(s)</source>
        <translation>Enviar %1 pagamento(s)</translation>
    </message>
    <message>
        <source>Send again %1 payment(s)</source>
        <translation>Enviar de novo %1 pagamento(s)</translation>
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
        <source>This batch was sent before: tick “Send this batch again” to pay it again.</source>
        <translation>Este lote já foi enviado: marque “Enviar este lote de novo” para pagá-lo outra vez.</translation>
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
        <source>Submitted for approval: %1 payment(s), %2. Another person approves the batch as one decision (the Approvals tab); nothing is sent before that.</source>
        <translation>Enviado para aprovação: %1 pagamento(s), %2. Outra pessoa aprova o lote em uma única decisão (a aba Aprovações); nada é enviado antes disso.</translation>
    </message>
    <message>
        <source>Not submitted (stopped): %1.</source>
        <translation>Não enviado (interrompido): %1.</translation>
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
        <source>Dual control: this payment is submitted for approval; it is sent once another person approves it (the Approvals tab).</source>
        <translation>Controle duplo: este pagamento é enviado para aprovação; ele é enviado ao banco depois que outra pessoa o aprovar (a aba Aprovações).</translation>
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
        <source>Submit for approval</source>
        <translation>Enviar para aprovação</translation>
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
        <source>Last paid to</source>
        <translation>Último pagamento a</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%1 em %2</translation>
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
        <source>Pay on</source>
        <translation>Pagar em</translation>
    </message>
    <message>
        <source>Repeats</source>
        <translation>Repete</translation>
    </message>
    <message>
        <source>%1, branch %2, account %3 (%4)</source>
        <translation>%1, agência %2, conta %3 (%4)</translation>
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
        <source>Without check digit</source>
        <translation>Sem dígito verificador</translation>
    </message>
    <message>
        <source>With check digit</source>
        <translation>Com dígito verificador</translation>
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
        <source>Bank name or code, or its ISPB (8 digits)</source>
        <translation>Nome ou código do banco, ou o ISPB (8 dígitos)</translation>
    </message>
    <message>
        <source>Later, on</source>
        <translation>Depois, em</translation>
    </message>
    <message>
        <source>Pay on</source>
        <translation>Pagar em</translation>
    </message>
    <message>
        <source>Repeat</source>
        <translation>Repetir</translation>
    </message>
    <message>
        <source>Paid to someone the registry does not name</source>
        <translation>Pago a alguém que o cadastro não indica</translation>
    </message>
    <message>
        <source>Payee</source>
        <translation>Favorecido</translation>
    </message>
    <message>
        <source>Bank</source>
        <translation>Banco</translation>
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
        <source>The charge sets the amount: leave it empty to pay what it asks.</source>
        <translation>A cobrança define o valor: deixe em branco para pagar o que ela pede.</translation>
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
        <source>The recurring Pix was not created.</source>
        <translation>O Pix recorrente não foi criado.</translation>
    </message>
    <message>
        <source>Recurring Pix created: %1 payment(s) scheduled ahead</source>
        <translation>Pix recorrente criado: %1 pagamento(s) agendado(s) adiante</translation>
    </message>
    <message>
        <source>Submitting the Pix for approval…</source>
        <translation>Enviando o Pix para aprovação…</translation>
    </message>
    <message>
        <source>Sending the Pix…</source>
        <translation>Enviando o Pix…</translation>
    </message>
    <message>
        <source>The same payment waits for approval</source>
        <translation>O mesmo pagamento aguarda aprovação</translation>
    </message>
    <message>
        <source>The Pix was not sent.</source>
        <translation>O Pix não foi enviado.</translation>
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
        <source>Random key</source>
        <translation>Chave aleatória</translation>
    </message>
</context>
<context>
    <name>PolicyView</name>
    <message>
        <source>Sandbox bank turned off</source>
        <translation>Banco sandbox desativado</translation>
    </message>
    <message>
        <source>Data folder</source>
        <translation>Pasta de dados</translation>
    </message>
    <message>
        <source>Backup folder</source>
        <translation>Pasta de backups</translation>
    </message>
    <message>
        <source>Team database</source>
        <translation>Banco de dados da equipe</translation>
    </message>
    <message>
        <source>Release mode</source>
        <translation>Modo de liberação</translation>
    </message>
    <message>
        <source>Preset profile</source>
        <translation>Perfil predefinido</translation>
    </message>
    <message>
        <source>Locked</source>
        <translation>Travada</translation>
    </message>
    <message>
        <source>Group Policy (registry)</source>
        <translation>Política de Grupo (registro)</translation>
    </message>
    <message>
        <source>Settings file (policy.ini)</source>
        <translation>Arquivo de configurações (policy.ini)</translation>
    </message>
    <message>
        <source>🔒 Set by your IT department</source>
        <translation>🔒 Definido pelo seu departamento de TI</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>sim</translation>
    </message>
    <message>
        <source>no</source>
        <translation>não</translation>
    </message>
    <message>
        <source>Your IT department&apos;s settings</source>
        <translation>Configurações do seu departamento de TI</translation>
    </message>
    <message>
        <source>Treasury cannot start: a setting your IT department made for this computer is not valid.

%1

Please tell your IT department.</source>
        <translation>A Tesouraria não pode iniciar: uma configuração que o seu departamento de TI fez para este computador não é válida.

%1

Avise o seu departamento de TI.</translation>
    </message>
</context>
<context>
    <name>ProfileDialog</name>
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
    <message>
        <source>Real banks are verified through the system trust store: a custom CA file is for test setups. Use one only if your bank gave it to you, and check its fingerprint with the bank.</source>
        <translation>Bancos reais são verificados pelo repositório de confiança do sistema: um arquivo de CA próprio é para ambientes de teste. Use um só se o seu banco o forneceu, e confira a impressão digital dele com o banco.</translation>
    </message>
    <message>
        <source>This computer (default)</source>
        <translation>Este computador (padrão)</translation>
    </message>
    <message>
        <source>Team database</source>
        <translation>Banco de dados da equipe</translation>
    </message>
    <message>
        <source>For example: db.example.com</source>
        <translation>Por exemplo: db.exemplo.com.br</translation>
    </message>
    <message>
        <source>Your own PostgreSQL login</source>
        <translation>Seu próprio login no PostgreSQL</translation>
    </message>
    <message>
        <source>verify-full checks the server&apos;s certificate against the CA file and its name against the host: keep it unless the administrator says otherwise.</source>
        <translation>verify-full confere o certificado do servidor com o arquivo de CA e o nome dele com o host: mantenha-o, a não ser que o administrador diga outra coisa.</translation>
    </message>
    <message>
        <source>The CA that signed the server&apos;s certificate</source>
        <translation>A CA que assinou o certificado do servidor</translation>
    </message>
    <message>
        <source>Optional</source>
        <translation>Opcional</translation>
    </message>
    <message>
        <source>Optional, with the certificate</source>
        <translation>Opcional, junto com o certificado</translation>
    </message>
    <message>
        <source>In the system keyring</source>
        <translation>No chaveiro do sistema</translation>
    </message>
    <message>
        <source>Ask at every unlock</source>
        <translation>Perguntar a cada desbloqueio</translation>
    </message>
    <message>
        <source>None (client certificate)</source>
        <translation>Nenhuma (certificado de cliente)</translation>
    </message>
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
        <source>CNPJ, e-mail, phone or random key; comma between</source>
        <translation>CNPJ, e-mail, telefone ou chave aleatória; separados por vírgula</translation>
    </message>
    <message>
        <source>The Pix keys registered on the company&apos;s account: charges are issued to them.</source>
        <translation>As chaves Pix cadastradas na conta da empresa: as cobranças são emitidas para elas.</translation>
    </message>
    <message>
        <source>The system&apos;s proxy</source>
        <translation>O proxy do sistema</translation>
    </message>
    <message>
        <source>No proxy (direct)</source>
        <translation>Sem proxy (direto)</translation>
    </message>
    <message>
        <source>This proxy:</source>
        <translation>Este proxy:</translation>
    </message>
    <message>
        <source>How both APIs are reached. The system&apos;s bypass list is honoured, and this computer&apos;s own addresses (127.0.0.1, localhost) are always reached directly.</source>
        <translation>Como as duas APIs são acessadas. A lista de exceções do sistema é respeitada, e os endereços deste próprio computador (127.0.0.1, localhost) são sempre acessados diretamente.</translation>
    </message>
    <message>
        <source>this profile is the same for everyone; type your client secrets.</source>
        <translation>este perfil é o mesmo para todos; digite os seus client secrets.</translation>
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
        <source>Account&apos;s Pix keys</source>
        <translation>Chaves Pix da conta</translation>
    </message>
    <message>
        <source>Proxy</source>
        <translation>Proxy</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Salvar</translation>
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
    <message>
        <source>Ledger</source>
        <translation>Registro de operações</translation>
    </message>
    <message>
        <source>Where it lives</source>
        <translation>Onde fica</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>Host</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>Porta</translation>
    </message>
    <message>
        <source>Database</source>
        <translation>Banco de dados</translation>
    </message>
    <message>
        <source>Your login</source>
        <translation>Seu login</translation>
    </message>
    <message>
        <source>TLS (sslmode)</source>
        <translation>TLS (sslmode)</translation>
    </message>
    <message>
        <source>Client certificate</source>
        <translation>Certificado de cliente</translation>
    </message>
    <message>
        <source>Certificate key</source>
        <translation>Chave do certificado</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>Senha</translation>
    </message>
    <message>
        <source>Password to keep</source>
        <translation>Senha a guardar</translation>
    </message>
    <message>
        <source>PEM files (*.pem *.crt *.cer *.key);;All files (*)</source>
        <translation>Arquivos PEM (*.pem *.crt *.cer *.key);;Todos os arquivos (*)</translation>
    </message>
    <message>
        <source>CA of the team database</source>
        <translation>CA do banco de dados da equipe</translation>
    </message>
    <message>
        <source>Your client certificate</source>
        <translation>Seu certificado de cliente</translation>
    </message>
    <message>
        <source>The key of your certificate</source>
        <translation>A chave do seu certificado</translation>
    </message>
    <message>
        <source>Leave empty to keep the current password</source>
        <translation>Deixe em branco para manter a senha atual</translation>
    </message>
    <message>
        <source>Everyone on the team shares one ledger in a PostgreSQL database: its administrator gives you the address and your own login.</source>
        <translation>Toda a equipe compartilha um só registro de operações em um banco de dados PostgreSQL: o administrador dele passa a você o endereço e o seu próprio login.</translation>
    </message>
    <message>
        <source>Payments, audit and receipts are kept in a file on this computer.</source>
        <translation>Pagamentos, auditoria e comprovantes ficam guardados em um arquivo neste computador.</translation>
    </message>
    <message>
        <source>Kept in the system keyring (%1), never in the profile file.</source>
        <translation>Guardada no chaveiro do sistema (%1), nunca no arquivo do perfil.</translation>
    </message>
    <message>
        <source>There is no system keyring on this computer: choose “Ask at every unlock”.</source>
        <translation>Não há chaveiro do sistema neste computador: escolha “Perguntar a cada desbloqueio”.</translation>
    </message>
    <message>
        <source>Asked in the unlock window each time; never stored.</source>
        <translation>Pedida na janela de desbloqueio a cada vez; nunca guardada.</translation>
    </message>
    <message>
        <source>No password: your client certificate (or the server&apos;s own rule) logs you in.</source>
        <translation>Sem senha: o seu certificado de cliente (ou a própria regra do servidor) faz o login.</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>&amp;Look in:</source>
        <translation>&amp;Procurar em:</translation>
    </message>
    <message>
        <source>Files of &amp;type:</source>
        <translation>Arquivos do &amp;tipo:</translation>
    </message>
</context>
<context>
    <name>RangeList</name>
    <message>
        <source>Reload</source>
        <translation>Recarregar</translation>
    </message>
    <message>
        <source>to</source>
        <translation>até</translation>
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
        <source>Check this receipt: %1 stored a receipt for this payment and the copy %2&apos;s computer fetched from the bank is different. The copy shown is %4. Tell the administrator: the audit log has both.</source>
        <translation>Confira este comprovante: %1 guardou um comprovante deste pagamento e a cópia que o computador de %2 obteve do banco é diferente. A cópia exibida é %4. Avise o administrador: o registro de auditoria tem as duas.</translation>
    </message>
    <message>
        <source>the one this computer got from the bank</source>
        <translation>a que este computador obteve do banco</translation>
    </message>
    <message>
        <source>the one stored first</source>
        <translation>a guardada primeiro</translation>
    </message>
    <message>
        <source>Receipt — %1</source>
        <translation>Comprovante — %1</translation>
    </message>
</context>
<context>
    <name>ReceivedPixList</name>
    <message>
        <source>Search endToEndId, txid, payer, amount</source>
        <translation>Buscar endToEndId, txid, pagador, valor</translation>
    </message>
    <message>
        <source>Received from</source>
        <translation>Recebidos de</translation>
    </message>
    <message>
        <source>Refund…</source>
        <translation>Devolver…</translation>
    </message>
    <message>
        <source>Return all or part of the selected Pix to its payer</source>
        <translation>Devolver ao pagador o Pix selecionado, total ou parcialmente</translation>
    </message>
    <message>
        <source>%1 Pix</source>
        <translation>%1 Pix</translation>
    </message>
    <message>
        <source>%1 of %2 Pix</source>
        <translation>%1 de %2 Pix</translation>
    </message>
</context>
<context>
    <name>ReceivedPixModel</name>
    <message>
        <source>Received</source>
        <translation>Recebido em</translation>
    </message>
    <message>
        <source>endToEndId</source>
        <translation>endToEndId</translation>
    </message>
    <message>
        <source>txid</source>
        <translation>txid</translation>
    </message>
    <message>
        <source>Payer</source>
        <translation>Pagador</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>Refunded</source>
        <translation>Devolvido</translation>
    </message>
    <message>
        <source>Last refund</source>
        <translation>Última devolução</translation>
    </message>
</context>
<context>
    <name>RecurrenceDetailDialog</name>
    <message>
        <source>Recurrence %1</source>
        <translation>Recorrência %1</translation>
    </message>
    <message>
        <source>Terms</source>
        <translation>Condições</translation>
    </message>
    <message>
        <source>idRec</source>
        <translation>idRec</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Situação</translation>
    </message>
    <message>
        <source>Debtor</source>
        <translation>Devedor</translation>
    </message>
    <message>
        <source>Contract</source>
        <translation>Contrato</translation>
    </message>
    <message>
        <source>Object</source>
        <translation>Objeto</translation>
    </message>
    <message>
        <source>Periodicity</source>
        <translation>Periodicidade</translation>
    </message>
    <message>
        <source>Validity</source>
        <translation>Vigência</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>Retry policy</source>
        <translation>Política de novas tentativas</translation>
    </message>
    <message>
        <source>Journey</source>
        <translation>Jornada</translation>
    </message>
    <message>
        <source>Payer&apos;s PSP</source>
        <translation>PSP do pagador</translation>
    </message>
    <message>
        <source>Location</source>
        <translation>Localização</translation>
    </message>
    <message>
        <source>Closing</source>
        <translation>Encerramento</translation>
    </message>
    <message>
        <source>Status history</source>
        <translation>Histórico da situação</translation>
    </message>
    <message>
        <source>Time (Brasília)</source>
        <translation>Data/hora (Brasília)</translation>
    </message>
    <message>
        <source>Confirmation requests (solicrec)</source>
        <translation>Solicitações de confirmação (solicrec)</translation>
    </message>
    <message>
        <source>idSolicRec</source>
        <translation>idSolicRec</translation>
    </message>
    <message>
        <source>Expires</source>
        <translation>Expira em</translation>
    </message>
    <message>
        <source>Cancel request…</source>
        <translation>Cancelar solicitação…</translation>
    </message>
    <message>
        <source>Recurring charges (cobr)</source>
        <translation>Cobranças recorrentes (cobr)</translation>
    </message>
    <message>
        <source>txid</source>
        <translation>txid</translation>
    </message>
    <message>
        <source>Due date</source>
        <translation>Vencimento</translation>
    </message>
    <message>
        <source>New recurring charge…</source>
        <translation>Nova cobrança recorrente…</translation>
    </message>
    <message>
        <source>Open charge…</source>
        <translation>Abrir cobrança…</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Atualizar</translation>
    </message>
    <message>
        <source>Revise…</source>
        <translation>Revisar…</translation>
    </message>
    <message>
        <source>Cancel recurrence…</source>
        <translation>Cancelar recorrência…</translation>
    </message>
    <message>
        <source>Sandbox: payer approves</source>
        <translation>Sandbox: pagador aprova</translation>
    </message>
    <message>
        <source>Sandbox: payer rejects</source>
        <translation>Sandbox: pagador rejeita</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fechar</translation>
    </message>
    <message>
        <source>Sandbox only: plays the payer deciding on the recurrence (and on its pending confirmation request). With a real bank the payer decides in their own app.</source>
        <translation>Somente no sandbox: simula a decisão do pagador sobre a recorrência (e sobre a solicitação de confirmação pendente). Em um banco real, o pagador decide no próprio aplicativo.</translation>
    </message>
    <message>
        <source>no end</source>
        <translation>sem fim</translation>
    </message>
    <message>
        <source>minimum</source>
        <translation>mínimo</translation>
    </message>
    <message>
        <source>free per charge</source>
        <translation>livre por cobrança</translation>
    </message>
    <message>
        <source>Cancel the recurrence %1 of %2? No further charge can be made under it; its pending confirmation requests and unpaid charges end too. This cannot be undone.</source>
        <translation>Cancelar a recorrência %1 de %2? Nenhuma nova cobrança poderá ser feita com ela; as solicitações de confirmação pendentes e as cobranças não pagas também serão encerradas. Não é possível desfazer.</translation>
    </message>
    <message>
        <source>Cancel the recurrence</source>
        <translation>Cancelar a recorrência</translation>
    </message>
    <message>
        <source>Cancel the confirmation request %1 sent to the payer?</source>
        <translation>Cancelar a solicitação de confirmação %1 enviada ao pagador?</translation>
    </message>
    <message>
        <source>Cancel the request</source>
        <translation>Cancelar a solicitação</translation>
    </message>
    <message>
        <source>Waiting for the bank&apos;s answer</source>
        <translation>Aguardando a resposta do banco</translation>
    </message>
    <message>
        <source>The change is already on its way; close the window once it answers.</source>
        <translation>A alteração já foi enviada; feche a janela quando o banco responder.</translation>
    </message>
</context>
<context>
    <name>RecurrenceTermsForm</name>
    <message>
        <source>e.g. CT-2026-001</source>
        <translation>ex.: CT-2026-001</translation>
    </message>
    <message>
        <source>CPF or CNPJ</source>
        <translation>CPF ou CNPJ</translation>
    </message>
    <message>
        <source>e.g. Monthly plan</source>
        <translation>ex.: Plano mensal</translation>
    </message>
    <message>
        <source>Ends on</source>
        <translation>Termina em</translation>
    </message>
    <message>
        <source>Fixed amount every cycle</source>
        <translation>Valor fixo a cada ciclo</translation>
    </message>
    <message>
        <source>Variable amount, with a minimum the payer must accept</source>
        <translation>Valor variável, com um mínimo que o pagador deve aceitar</translation>
    </message>
    <message>
        <source>Variable amount, no minimum</source>
        <translation>Valor variável, sem mínimo</translation>
    </message>
    <message>
        <source>Contract</source>
        <translation>Contrato</translation>
    </message>
    <message>
        <source>Debtor&apos;s CPF/CNPJ</source>
        <translation>CPF/CNPJ do devedor</translation>
    </message>
    <message>
        <source>Debtor&apos;s name</source>
        <translation>Nome do devedor</translation>
    </message>
    <message>
        <source>Purpose (optional)</source>
        <translation>Finalidade (opcional)</translation>
    </message>
    <message>
        <source>First date</source>
        <translation>Data inicial</translation>
    </message>
    <message>
        <source>End date</source>
        <translation>Data final</translation>
    </message>
    <message>
        <source>Periodicity</source>
        <translation>Periodicidade</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>Amount per cycle</source>
        <translation>Valor por ciclo</translation>
    </message>
    <message>
        <source>Retries</source>
        <translation>Novas tentativas</translation>
    </message>
    <message>
        <source>Enter the contract&apos;s reference.</source>
        <translation>Informe a referência do contrato.</translation>
    </message>
    <message>
        <source>Enter the debtor&apos;s name.</source>
        <translation>Informe o nome do devedor.</translation>
    </message>
    <message>
        <source>The first date cannot be before today (%1).</source>
        <translation>A data inicial não pode ser anterior a hoje (%1).</translation>
    </message>
    <message>
        <source>The end date is before the first date.</source>
        <translation>A data final é anterior à data inicial.</translation>
    </message>
    <message>
        <source>Enter the amount.</source>
        <translation>Informe o valor.</translation>
    </message>
    <message>
        <source>The amount must be above zero.</source>
        <translation>O valor deve ser maior que zero.</translation>
    </message>
    <message>
        <source>%1 every cycle</source>
        <translation>%1 a cada ciclo</translation>
    </message>
    <message>
        <source>Variable, at least %1</source>
        <translation>Variável, no mínimo %1</translation>
    </message>
    <message>
        <source>Variable, set by each charge</source>
        <translation>Variável, definido em cada cobrança</translation>
    </message>
    <message>
        <source>Debtor</source>
        <translation>Devedor</translation>
    </message>
    <message>
        <source>Purpose</source>
        <translation>Finalidade</translation>
    </message>
    <message>
        <source>No end date</source>
        <translation>Sem data final</translation>
    </message>
    <message>
        <source>Minimum amount</source>
        <translation>Valor mínimo</translation>
    </message>
</context>
<context>
    <name>RecurrenceWizard</name>
    <message>
        <source>New recurrence (Pix Automático)</source>
        <translation>Nova recorrência (Pix Automático)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>&lt; Back</source>
        <translation>&lt; Voltar</translation>
    </message>
    <message>
        <source>Next &gt;</source>
        <translation>Avançar &gt;</translation>
    </message>
    <message>
        <source>Create</source>
        <translation>Criar</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fechar</translation>
    </message>
    <message>
        <source>How will the payer authorise the recurrence?</source>
        <translation>Como o pagador vai autorizar a recorrência?</translation>
    </message>
    <message>
        <source>Request through the payer&apos;s bank (journey 1)</source>
        <translation>Solicitação pelo banco do pagador (jornada 1)</translation>
    </message>
    <message>
        <source>We send a confirmation request to the payer&apos;s bank, which asks them to authorise it in their banking app; no QR Code, nothing paid now.</source>
        <translation>Enviamos uma solicitação de confirmação ao banco do pagador, que pede que ele a autorize no aplicativo do banco; sem QR Code, nada é pago agora.</translation>
    </message>
    <message>
        <source>Recurrence QR Code (journey 2)</source>
        <translation>QR Code de recorrência (jornada 2)</translation>
    </message>
    <message>
        <source>You show the payer a QR Code that only authorises the recurrence; the first charge comes later, on its due date.</source>
        <translation>Você mostra ao pagador um QR Code que apenas autoriza a recorrência; a primeira cobrança vem depois, no vencimento.</translation>
    </message>
    <message>
        <source>QR Code with a payment now (journey 3)</source>
        <translation>QR Code com pagamento agora (jornada 3)</translation>
    </message>
    <message>
        <source>The payer scans one QR Code that pays an immediate charge (the first instalment, for example) and authorises the recurrence at the same time.</source>
        <translation>O pagador lê um único QR Code que paga uma cobrança imediata (a primeira parcela, por exemplo) e, ao mesmo tempo, autoriza a recorrência.</translation>
    </message>
    <message>
        <source>QR Code with a due-date charge (journey 4)</source>
        <translation>QR Code com cobrança com vencimento (jornada 4)</translation>
    </message>
    <message>
        <source>The payer scans one QR Code that pays a charge with a due date and authorises the recurrence at the same time.</source>
        <translation>O pagador lê um único QR Code que paga uma cobrança com vencimento e, ao mesmo tempo, autoriza a recorrência.</translation>
    </message>
    <message>
        <source>Check the terms: the payer will authorise exactly these. Then click Create.</source>
        <translation>Confira as condições: o pagador vai autorizar exatamente estas. Depois clique em Criar.</translation>
    </message>
    <message>
        <source>Recurrence (idRec)</source>
        <translation>Recorrência (idRec)</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Situação</translation>
    </message>
    <message>
        <source>Confirmation request</source>
        <translation>Solicitação de confirmação</translation>
    </message>
    <message>
        <source>Request status</source>
        <translation>Situação da solicitação</translation>
    </message>
    <message>
        <source>Charge</source>
        <translation>Cobrança</translation>
    </message>
    <message>
        <source>Refresh status</source>
        <translation>Atualizar situação</translation>
    </message>
    <message>
        <source>Sandbox: authorise as the payer</source>
        <translation>Sandbox: autorizar como pagador</translation>
    </message>
    <message>
        <source>Sandbox only: approves the recurrence (journeys 1 and 2) or pays the charge (journeys 3 and 4) as the payer would. With a real bank the payer does this in their own banking app.</source>
        <translation>Somente no sandbox: aprova a recorrência (jornadas 1 e 2) ou paga a cobrança (jornadas 3 e 4) como o pagador faria. Em um banco real, o pagador faz isso no próprio aplicativo do banco.</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Copiar</translation>
    </message>
    <message>
        <source>Copy the Pix Copia e Cola text</source>
        <translation>Copiar o texto do Pix Copia e Cola</translation>
    </message>
    <message>
        <source>Pix Copia e Cola</source>
        <translation>Pix Copia e Cola</translation>
    </message>
    <message>
        <source>1. How the payer authorises</source>
        <translation>1. Como o pagador autoriza</translation>
    </message>
    <message>
        <source>2. Terms of the recurrence</source>
        <translation>2. Condições da recorrência</translation>
    </message>
    <message>
        <source>3. Payer&apos;s account</source>
        <translation>3. Conta do pagador</translation>
    </message>
    <message>
        <source>3. Charge paid with the QR Code</source>
        <translation>3. Cobrança paga com o QR Code</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>Conferência</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Concluído</translation>
    </message>
    <message>
        <source>Please check the form</source>
        <translation>Verifique o formulário</translation>
    </message>
    <message>
        <source>Confirmation request through the payer&apos;s bank (journey 1)</source>
        <translation>Solicitação de confirmação pelo banco do pagador (jornada 1)</translation>
    </message>
    <message>
        <source>Composite QR Code with an immediate charge (journey 3)</source>
        <translation>QR Code composto com cobrança imediata (jornada 3)</translation>
    </message>
    <message>
        <source>Composite QR Code with a due-date charge (journey 4)</source>
        <translation>QR Code composto com cobrança com vencimento (jornada 4)</translation>
    </message>
    <message>
        <source>Authorisation</source>
        <translation>Autorização</translation>
    </message>
    <message>
        <source>The recurrence %1 was created but the confirmation request was not.</source>
        <translation>A recorrência %1 foi criada, mas a solicitação de confirmação não.</translation>
    </message>
    <message>
        <source>The recurrence %1 was created but its charge was not.</source>
        <translation>A recorrência %1 foi criada, mas a cobrança dela não.</translation>
    </message>
    <message>
        <source>The charge %2 was created but its recurrence was not.</source>
        <translation>A cobrança %2 foi criada, mas a recorrência dela não.</translation>
    </message>
    <message>
        <source>The recurrence %1 was created but its QR Code could not be read.</source>
        <translation>A recorrência %1 foi criada, mas o QR Code dela não pôde ser lido.</translation>
    </message>
    <message>
        <source>Part of the recurrence was created.</source>
        <translation>Parte da recorrência foi criada.</translation>
    </message>
    <message>
        <source>The journey stopped half-way</source>
        <translation>A jornada parou no meio do caminho</translation>
    </message>
    <message>
        <source>Finish or cancel it from the recurrences list.</source>
        <translation>Conclua ou cancele pela lista de recorrências.</translation>
    </message>
    <message>
        <source>The bank&apos;s answer was lost: the recurrence may have been created</source>
        <translation>A resposta do banco se perdeu: a recorrência pode ter sido criada</translation>
    </message>
    <message>
        <source>The request reached the bank but no answer came back (%1). Check the Recurrences list for contract %2 before trying again: creating it again could make a duplicate recurrence and a second request to the payer.</source>
        <translation>A solicitação chegou ao banco, mas nenhuma resposta voltou (%1). Confira na lista de Recorrências o contrato %2 antes de tentar de novo: criá-la outra vez poderia gerar uma recorrência duplicada e um segundo pedido ao pagador.</translation>
    </message>
    <message>
        <source>Recurrence created and confirmation request sent: the payer&apos;s bank will ask them to authorise it.</source>
        <translation>Recorrência criada e solicitação de confirmação enviada: o banco do pagador pedirá que ele a autorize.</translation>
    </message>
    <message>
        <source>%1, txid %2, %3</source>
        <translation>%1, txid %2, %3</translation>
    </message>
    <message>
        <source>Recurrence and charge created: show this QR Code to the payer. Paying the charge authorises the recurrence.</source>
        <translation>Recorrência e cobrança criadas: mostre este QR Code ao pagador. Ao pagar a cobrança, ele autoriza a recorrência.</translation>
    </message>
    <message>
        <source>Recurrence created: show this QR Code to the payer, who authorises the recurrence by scanning it.</source>
        <translation>Recorrência criada: mostre este QR Code ao pagador, que autoriza a recorrência ao lê-lo.</translation>
    </message>
    <message>
        <source>The bank&apos;s code could not be read: %1</source>
        <translation>Não foi possível ler o código do banco: %1</translation>
    </message>
    <message>
        <source>Composite QR Code: pays the charge and authorises the recurrence.</source>
        <translation>QR Code composto: paga a cobrança e autoriza a recorrência.</translation>
    </message>
    <message>
        <source>Recurrence QR Code: authorises the recurrence only.</source>
        <translation>QR Code de recorrência: apenas autoriza a recorrência.</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>Copiado</translation>
    </message>
</context>
<context>
    <name>RecurrencesList</name>
    <message>
        <source>Any status</source>
        <translation>Qualquer situação</translation>
    </message>
    <message>
        <source>Debtor&apos;s CPF or CNPJ</source>
        <translation>CPF ou CNPJ do devedor</translation>
    </message>
    <message>
        <source>Convenio</source>
        <translation>Convênio</translation>
    </message>
    <message>
        <source>With or without location</source>
        <translation>Com ou sem localização</translation>
    </message>
    <message>
        <source>With a location</source>
        <translation>Com localização</translation>
    </message>
    <message>
        <source>Without a location</source>
        <translation>Sem localização</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>Buscar</translation>
    </message>
    <message>
        <source>Created from</source>
        <translation>Criadas de</translation>
    </message>
    <message>
        <source>to</source>
        <translation>até</translation>
    </message>
    <message>
        <source>Find in idRec, debtor or contract</source>
        <translation>Buscar em idRec, devedor ou contrato</translation>
    </message>
    <message>
        <source>Details…</source>
        <translation>Detalhes…</translation>
    </message>
    <message>
        <source>Recurrences: %1</source>
        <translation>Recorrências: %1</translation>
    </message>
</context>
<context>
    <name>RecurrencesModel</name>
    <message>
        <source>The bank&apos;s description: %1</source>
        <translation>Descrição do banco: %1</translation>
    </message>
    <message>
        <source>idRec</source>
        <translation>idRec</translation>
    </message>
    <message>
        <source>Debtor</source>
        <translation>Devedor</translation>
    </message>
    <message>
        <source>Object / contract</source>
        <translation>Objeto / contrato</translation>
    </message>
    <message>
        <source>Periodicity</source>
        <translation>Periodicidade</translation>
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
        <source>Journey</source>
        <translation>Jornada</translation>
    </message>
    <message>
        <source>min.</source>
        <translation>mín.</translation>
    </message>
    <message>
        <source>free</source>
        <translation>livre</translation>
    </message>
</context>
<context>
    <name>RecurrencesTab</name>
    <message>
        <source>New recurrence…</source>
        <translation>Nova recorrência…</translation>
    </message>
    <message>
        <source>Agree a Pix Automático recurrence with a payer (four journeys)</source>
        <translation>Combinar uma recorrência do Pix Automático com um pagador (quatro jornadas)</translation>
    </message>
    <message>
        <source>Recurrences</source>
        <translation>Recorrências</translation>
    </message>
    <message>
        <source>Recurrence locations</source>
        <translation>Localizações de recorrência</translation>
    </message>
    <message>
        <source>Pix Automático: payers authorise the company once, then each recurring charge is debited on its date.</source>
        <translation>Pix Automático: o pagador autoriza a empresa uma vez e, depois, cada cobrança recorrente é debitada na data.</translation>
    </message>
</context>
<context>
    <name>RefundDialog</name>
    <message>
        <source>Refund a received Pix</source>
        <translation>Devolver um Pix recebido</translation>
    </message>
    <message>
        <source>endToEndId</source>
        <translation>endToEndId</translation>
    </message>
    <message>
        <source>txid</source>
        <translation>txid</translation>
    </message>
    <message>
        <source>None</source>
        <translation>Não informado</translation>
    </message>
    <message>
        <source>Payer</source>
        <translation>Pagador</translation>
    </message>
    <message>
        <source>Not given by the bank</source>
        <translation>Não informado pelo banco</translation>
    </message>
    <message>
        <source>Amount received</source>
        <translation>Valor recebido</translation>
    </message>
    <message>
        <source>Refunded so far</source>
        <translation>Devolvido até agora</translation>
    </message>
    <message>
        <source>Left to refund</source>
        <translation>Restante a devolver</translation>
    </message>
    <message>
        <source>Everything left: %1</source>
        <translation>Todo o restante: %1</translation>
    </message>
    <message>
        <source>Part of it:</source>
        <translation>Parte dele:</translation>
    </message>
    <message>
        <source>Why (optional, shown to the payer)</source>
        <translation>Motivo (opcional, exibido ao pagador)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Review…</source>
        <translation>Conferir…</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Descrição</translation>
    </message>
    <message>
        <source>Type the amount to refund.</source>
        <translation>Digite o valor a devolver.</translation>
    </message>
    <message>
        <source>The amount must be greater than zero.</source>
        <translation>O valor deve ser maior que zero.</translation>
    </message>
    <message>
        <source>At most %1 is left to refund.</source>
        <translation>Restam no máximo %1 a devolver.</translation>
    </message>
    <message>
        <source>Who receives the refund</source>
        <translation>Quem recebe a devolução</translation>
    </message>
    <message>
        <source>The payer of this Pix (the bank did not give a name)</source>
        <translation>O pagador deste Pix (o banco não informou o nome)</translation>
    </message>
    <message>
        <source>Pix refunded (endToEndId)</source>
        <translation>Pix devolvido (endToEndId)</translation>
    </message>
    <message>
        <source>Refund id</source>
        <translation>Id da devolução</translation>
    </message>
    <message>
        <source>Left to refund afterwards</source>
        <translation>Restante a devolver depois</translation>
    </message>
    <message>
        <source>To confirm, type the amount to refund (%1):</source>
        <translation>Para confirmar, digite o valor a devolver (%1):</translation>
    </message>
    <message>
        <source>This is not the amount to refund.</source>
        <translation>Este não é o valor a devolver.</translation>
    </message>
    <message>
        <source>Refund</source>
        <translation>Devolver</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>Voltar</translation>
    </message>
    <message>
        <source>Amount to refund</source>
        <translation>Valor a devolver</translation>
    </message>
    <message>
        <source>The bank refused refund %1 (see above): it was not made.</source>
        <translation>O banco recusou a devolução %1 (veja acima): ela não foi feita.</translation>
    </message>
    <message>
        <source>Retry with the same id</source>
        <translation>Tentar de novo com o mesmo id</translation>
    </message>
    <message>
        <source>Check status</source>
        <translation>Consultar situação</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fechar</translation>
    </message>
    <message>
        <source>Refund %1 of %2 to %3</source>
        <translation>Devolver %1 de %2 para %3</translation>
    </message>
    <message>
        <source>the payer</source>
        <translation>o pagador</translation>
    </message>
    <message>
        <source>The bank&apos;s answer to this refund was lost: the refund may already be done. Do not make another refund for this Pix; check its status, or retry with the same id (the bank never makes the same id twice).</source>
        <translation>A resposta do banco para esta devolução se perdeu: a devolução pode já ter sido feita. Não faça outra devolução deste Pix; consulte a situação ou tente de novo com o mesmo id (o banco nunca faz o mesmo id duas vezes).</translation>
    </message>
    <message>
        <source>Asking the bank about refund %1…</source>
        <translation>Consultando o banco sobre a devolução %1…</translation>
    </message>
    <message>
        <source>The bank has no refund %1: it was not made. You may retry it with the same id and amount (%2).</source>
        <translation>O banco não tem a devolução %1: ela não foi feita. Você pode tentar de novo com o mesmo id e valor (%2).</translation>
    </message>
    <message>
        <source>following it with the bank…</source>
        <translation>acompanhando com o banco…</translation>
    </message>
    <message>
        <source>Still processing: the list of received Pix will show it.</source>
        <translation>Ainda em processamento: a lista de Pix recebidos vai exibi-la.</translation>
    </message>
</context>
<context>
    <name>Refusals</name>
    <message>
        <source>insufficient funds</source>
        <translation>saldo insuficiente</translation>
    </message>
    <message>
        <source>nobody approved it in the bank&apos;s console before it expired</source>
        <translation>ninguém o aprovou no console do banco antes do prazo</translation>
    </message>
    <message>
        <source>rejected in the bank&apos;s console</source>
        <translation>rejeitado no console do banco</translation>
    </message>
    <message>
        <source>No answer came from the bank: the payment is looked up by its key before anything is sent again.</source>
        <translation>Nenhuma resposta chegou do banco: o pagamento é consultado pela sua chave antes de qualquer novo envio.</translation>
    </message>
    <message>
        <source>the bank&apos;s code %1</source>
        <translation>código do banco %1</translation>
    </message>
    <message>
        <source>The bank refused it and gave no reason.</source>
        <translation>O banco recusou e não informou o motivo.</translation>
    </message>
    <message>
        <source>The bank refused it: %1</source>
        <translation>O banco recusou: %1</translation>
    </message>
    <message>
        <source>The bank did not carry it out and gave no reason.</source>
        <translation>O banco não o realizou e não informou o motivo.</translation>
    </message>
    <message>
        <source>The bank did not carry it out: %1.</source>
        <translation>O banco não o realizou: %1.</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>sem limite</translation>
    </message>
    <message>
        <source>an approver with a higher limit</source>
        <translation>um aprovador com limite maior</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>rejeitado</translation>
    </message>
    <message>
        <source>withdrawn</source>
        <translation>retirado</translation>
    </message>
    <message>
        <source>released to the bank</source>
        <translation>liberado para o banco</translation>
    </message>
    <message>
        <source>The bank says: %1</source>
        <translation>O banco diz: %1</translation>
    </message>
    <message>
        <source>%1: not accepted by the bank</source>
        <translation>%1: não aceito pelo banco</translation>
    </message>
</context>
<context>
    <name>RepeatEdit</name>
    <message>
        <source>Does not repeat</source>
        <translation>Não repete</translation>
    </message>
    <message>
        <source>Weekly</source>
        <translation>Semanal</translation>
    </message>
    <message>
        <source>Monthly, on day</source>
        <translation>Mensal, no dia</translation>
    </message>
    <message>
        <source>Monthly, on the last business day</source>
        <translation>Mensal, no último dia útil</translation>
    </message>
    <message>
        <source>Every N days</source>
        <translation>A cada N dias</translation>
    </message>
    <message>
        <source>times</source>
        <translation>vezes</translation>
    </message>
    <message>
        <source>until</source>
        <translation>até</translation>
    </message>
    <message>
        <source>ends after</source>
        <translation>termina após</translation>
    </message>
    <message>
        <source>Every week</source>
        <translation>Toda semana</translation>
    </message>
    <message>
        <source>Every %1 days</source>
        <translation>A cada %1 dias</translation>
    </message>
    <message>
        <source>Every month, on the last business day</source>
        <translation>Todo mês, no último dia útil</translation>
    </message>
    <message>
        <source>Every month, on day %1</source>
        <translation>Todo mês, no dia %1</translation>
    </message>
    <message>
        <source>until %1</source>
        <translation>até %1</translation>
    </message>
    <message>
        <source>%1 times</source>
        <translation>%1 vezes</translation>
    </message>
</context>
<context>
    <name>RestoreDialog</name>
    <message>
        <source>Restore a backup</source>
        <translation>Restaurar uma cópia de segurança</translation>
    </message>
    <message>
        <source>Choose a backup. It is checked before anything is replaced: every file against its manifest, the ledger&apos;s integrity and its version.</source>
        <translation>Escolha uma cópia. Ela é conferida antes de qualquer substituição: cada arquivo contra o seu manifesto, a integridade do registro de operações e a versão dele.</translation>
    </message>
    <message>
        <source>Other folder…</source>
        <translation>Outra pasta…</translation>
    </message>
    <message>
        <source>Check this backup</source>
        <translation>Conferir esta cópia</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>Restaurar</translation>
    </message>
    <message>
        <source>No backup folder is chosen: use “Other folder…”.</source>
        <translation>Nenhuma pasta de cópias foi escolhida: use “Outra pasta…”.</translation>
    </message>
    <message>
        <source>No backup of this profile in %1.</source>
        <translation>Nenhuma cópia deste perfil em %1.</translation>
    </message>
    <message>
        <source>daily</source>
        <translation>diária</translation>
    </message>
    <message>
        <source>on closing</source>
        <translation>ao fechar</translation>
    </message>
    <message>
        <source>made by hand</source>
        <translation>feita à mão</translation>
    </message>
    <message>
        <source>set aside by a restore</source>
        <translation>guardada por uma restauração</translation>
    </message>
    <message>
        <source>%1 · %2 · computer %3</source>
        <translation>%1 · %2 · computador %3</translation>
    </message>
    <message>
        <source>Choose the backup&apos;s folder</source>
        <translation>Escolha a pasta da cópia</translation>
    </message>
    <message>
        <source>Checking the backup…</source>
        <translation>Conferindo a cópia…</translation>
    </message>
    <message>
        <source>Backup of %1, %2, app %3: checked, sound.</source>
        <translation>Cópia de %1, %2, aplicativo %3: conferida, íntegra.</translation>
    </message>
    <message>
        <source>It holds %1 payments and %2 receipts.</source>
        <translation>Ela contém %1 pagamentos e %2 comprovantes.</translation>
    </message>
    <message>
        <source>Restoring replaces this profile&apos;s ledger with it: payments made after it will not be in the ledger. The current data is first kept aside, as a backup of its own, in %1.</source>
        <translation>Restaurar substitui o registro de operações deste perfil por ela: os pagamentos feitos depois dela não estarão no registro. Antes, os dados atuais são guardados à parte, como uma cópia de segurança própria, em %1.</translation>
    </message>
    <message>
        <source>This backup cannot be restored: %1</source>
        <translation>Esta cópia não pode ser restaurada: %1</translation>
    </message>
</context>
<context>
    <name>ReviseRecDialog</name>
    <message>
        <source>Revise the recurrence</source>
        <translation>Revisar a recorrência</translation>
    </message>
    <message>
        <source>Debtor&apos;s name</source>
        <translation>Nome do devedor</translation>
    </message>
    <message>
        <source>First date</source>
        <translation>Data inicial</translation>
    </message>
</context>
<context>
    <name>RuleWords</name>
    <message>
        <source>This is not accepted. Please check it.</source>
        <translation>Isto não é aceito. Confira, por favor.</translation>
    </message>
    <message>
        <source>The file is larger than {megabytes} MB: split it into smaller files.</source>
        <translation>O arquivo tem mais de {megabytes} MB: divida-o em arquivos menores.</translation>
    </message>
    <message>
        <source>This is a spreadsheet workbook, not a CSV file. In the spreadsheet, save it again as &quot;CSV UTF-8&quot;.</source>
        <translation>Isto é uma pasta de trabalho de planilha, não um arquivo CSV. Na planilha, salve-o de novo como &quot;CSV UTF-8&quot;.</translation>
    </message>
    <message>
        <source>This is a PDF document, not a CSV file.</source>
        <translation>Isto é um documento PDF, não um arquivo CSV.</translation>
    </message>
    <message>
        <source>Line {line} has bytes that are neither UTF-8 nor Windows-1252 text ({byte}). In the spreadsheet, save it again as &quot;CSV UTF-8&quot;.</source>
        <translation>A linha {line} tem bytes que não são texto UTF-8 nem Windows-1252 ({byte}). Na planilha, salve-o de novo como &quot;CSV UTF-8&quot;.</translation>
    </message>
    <message>
        <source>The file says it is {encoding} text, but line {line} is not valid {encoding}. In the spreadsheet, save it again as &quot;CSV UTF-8&quot;.</source>
        <translation>O arquivo diz ser texto {encoding}, mas a linha {line} não é {encoding} válido. Na planilha, salve-o de novo como &quot;CSV UTF-8&quot;.</translation>
    </message>
    <message>
        <source>More than {max} lines have errors: fix the file (the first {max} are listed).</source>
        <translation>Mais de {max} linhas têm erros: corrija o arquivo (as primeiras {max} estão listadas).</translation>
    </message>
    <message>
        <source>A cell is longer than {limit} characters: this line is not a payment or a charge (is a quote left open above it?).</source>
        <translation>Uma célula tem mais de {limit} caracteres: esta linha não é um pagamento nem uma cobrança (há aspas abertas acima dela?).</translation>
    </message>
    <message>
        <source>The line contains a NUL character (0x00): remove it.</source>
        <translation>A linha contém um caractere NUL (0x00): remova-o.</translation>
    </message>
    <message>
        <source>This line cannot be read as CSV.</source>
        <translation>Esta linha não pode ser lida como CSV.</translation>
    </message>
    <message>
        <source>Column {column}: a quoted cell runs from this line to line {last_line}; a cell cannot run over several lines (is a quote left open?).</source>
        <translation>Coluna {column}: uma célula entre aspas vai desta linha até a linha {last_line}; uma célula não pode ocupar várias linhas (há aspas abertas?).</translation>
    </message>
    <message>
        <source>Column {column}: a quoted cell runs from this line to the end of the file; a cell cannot run over several lines (is a quote left open?).</source>
        <translation>Coluna {column}: uma célula entre aspas vai desta linha até o fim do arquivo; uma célula não pode ocupar várias linhas (há aspas abertas?).</translation>
    </message>
    <message>
        <source>Column {column}: the cell contains a control character ({character}); remove it.</source>
        <translation>Coluna {column}: a célula contém um caractere de controle ({character}); remova-o.</translation>
    </message>
    <message>
        <source>The amount must be a decimal number.</source>
        <translation>O valor deve ser um número decimal.</translation>
    </message>
    <message>
        <source>The amount can have at most 2 decimal places.</source>
        <translation>O valor pode ter no máximo 2 casas decimais.</translation>
    </message>
    <message>
        <source>The amount must be greater than zero.</source>
        <translation>O valor deve ser maior que zero.</translation>
    </message>
    <message>
        <source>A Pix cannot exceed {limit}.</source>
        <translation>Um Pix não pode passar de {limit}.</translation>
    </message>
    <message>
        <source>The description can have at most {max} characters.</source>
        <translation>A descrição pode ter no máximo {max} caracteres.</translation>
    </message>
    <message>
        <source>This code authorises a recurrence (Pix Automático); it is not a payment.</source>
        <translation>Este código autoriza uma recorrência (Pix Automático); não é um pagamento.</translation>
    </message>
    <message>
        <source>The code is for {amount}; a different amount cannot be paid.</source>
        <translation>O código é de {amount}; não é possível pagar outro valor.</translation>
    </message>
    <message>
        <source>The code has no amount: type the amount to pay.</source>
        <translation>O código não tem valor: digite o valor a pagar.</translation>
    </message>
    <message>
        <source>This number is in scientific notation ({value}): a spreadsheet turned it into a number and lost its last digits. Format the column as text in Excel and type it again.</source>
        <translation>Este número está em notação científica ({value}): uma planilha o transformou em número e perdeu os últimos dígitos. Formate a coluna como texto no Excel e digite-o de novo.</translation>
    </message>
    <message>
        <source>The ISPB is the bank&apos;s 8-digit code.</source>
        <translation>O ISPB é o código de 8 dígitos do banco.</translation>
    </message>
    <message>
        <source>The branch is 1 to 4 digits, without check digit.</source>
        <translation>A agência tem de 1 a 4 dígitos, sem o dígito verificador.</translation>
    </message>
    <message>
        <source>The account is digits (check digit included).</source>
        <translation>A conta são dígitos (com o dígito verificador).</translation>
    </message>
    <message>
        <source>The account type is CACC (checking), SVGS (savings), SLRY (salary) or TRAN (payment).</source>
        <translation>O tipo de conta é CACC (corrente), SVGS (poupança), SLRY (salário) ou TRAN (pagamento).</translation>
    </message>
    <message>
        <source>Type the account holder&apos;s name.</source>
        <translation>Digite o nome do titular da conta.</translation>
    </message>
    <message>
        <source>The Pix key is empty.</source>
        <translation>A chave Pix está vazia.</translation>
    </message>
    <message>
        <source>{count} row(s) of the batch have errors; fix them or leave them out before sending.</source>
        <translation>{count} linha(s) do lote têm erros; corrija-as ou deixe-as de fora antes de enviar.</translation>
    </message>
    <message>
        <source>This batch was already sent on {sent_at} (Brasília) ({rows} payment(s), {total}, the same file). Nothing was sent: choose “Send again” to pay it again.</source>
        <translation>Este lote já foi enviado em {sent_at} (Brasília) ({rows} pagamento(s), {total}, o mesmo arquivo). Nada foi enviado: escolha “Enviar de novo” para pagá-lo outra vez.</translation>
    </message>
    <message>
        <source>This batch was already sent on {sent_at} (Brasília) ({rows} payment(s), {total}, the same payees and amounts). Nothing was sent: choose “Send again” to pay it again.</source>
        <translation>Este lote já foi enviado em {sent_at} (Brasília) ({rows} pagamento(s), {total}, os mesmos favorecidos e valores). Nada foi enviado: escolha “Enviar de novo” para pagá-lo outra vez.</translation>
    </message>
    <message>
        <source>Dynamic code: the bank confirms payee and amount when paying.</source>
        <translation>Código dinâmico: o banco confirma favorecido e valor no pagamento.</translation>
    </message>
    <message>
        <source>The payment will wait for approval in the bank&apos;s console.</source>
        <translation>O pagamento vai aguardar aprovação no console do banco.</translation>
    </message>
    <message>
        <source>{count} payment(s) of {amount} to this payee in the last 24 hours. Check that this is not a duplicate.</source>
        <translation>{count} pagamento(s) de {amount} a este favorecido nas últimas 24 horas. Verifique se não é uma duplicata.</translation>
    </message>
    <message>
        <source>Line {line} of this file pays the same payee the same amount.</source>
        <translation>A linha {line} deste arquivo paga o mesmo valor ao mesmo favorecido.</translation>
    </message>
    <message>
        <source>ISPB {typed} read as {padded} (a spreadsheet drops leading zeros): check that this is the payee&apos;s bank&apos;s ISPB, not its 3-digit bank code.</source>
        <translation>ISPB {typed} lido como {padded} (uma planilha tira os zeros à esquerda): verifique se este é o ISPB do banco do favorecido, e não o código de 3 dígitos do banco.</translation>
    </message>
    <message>
        <source>Branch {typed} read as {padded}.</source>
        <translation>Agência {typed} lida como {padded}.</translation>
    </message>
    <message>
        <source>The file is empty.</source>
        <translation>O arquivo está vazio.</translation>
    </message>
    <message>
        <source>Unknown column(s).</source>
        <translation>Coluna(s) desconhecida(s).</translation>
    </message>
    <message>
        <source>The amount column (valor) is missing.</source>
        <translation>Falta a coluna do valor (valor).</translation>
    </message>
    <message>
        <source>Give a chave column, or ispb, agencia, conta, tipo_conta, documento and nome.</source>
        <translation>Inclua uma coluna chave, ou ispb, agencia, conta, tipo_conta, documento e nome.</translation>
    </message>
    <message>
        <source>The file has more than {max} payments: split it into files of at most {max} (line {line} is payment {payment}).</source>
        <translation>O arquivo tem mais de {max} pagamentos: divida-o em arquivos de no máximo {max} (a linha {line} é o pagamento {payment}).</translation>
    </message>
    <message>
        <source>Expected {expected} columns, found {found}.</source>
        <translation>Esperadas {expected} colunas, encontradas {found}.</translation>
    </message>
    <message>
        <source>The file has a header but no payments.</source>
        <translation>O arquivo tem cabeçalho, mas nenhum pagamento.</translation>
    </message>
    <message>
        <source>This slip was already sent for payment on {at}: {amount}, still being followed. A slip is paid once: wait for that payment&apos;s outcome.</source>
        <translation>Este boleto já foi enviado para pagamento em {at}: {amount}, ainda em acompanhamento. Um boleto é pago uma vez só: aguarde o resultado desse pagamento.</translation>
    </message>
    <message>
        <source>This slip lets the payer choose the amount; such slips cannot be paid through the bank&apos;s API.</source>
        <translation>Este boleto deixa o pagador escolher o valor; boletos assim não podem ser pagos pela API do banco.</translation>
    </message>
    <message>
        <source>This slip has nothing left to pay.</source>
        <translation>Este boleto não tem mais nada a pagar.</translation>
    </message>
    <message>
        <source>The slip could be paid only until {until}; the bank will probably refuse it.</source>
        <translation>O boleto podia ser pago só até {until}; o banco provavelmente vai recusá-lo.</translation>
    </message>
    <message>
        <source>Overdue since {since}: {total} includes {charges} of fine and interest.</source>
        <translation>Vencido desde {since}: {total} inclui {charges} de multa e juros.</translation>
    </message>
    <message>
        <source>Overdue since {since}: {total} (no fine or interest charged).</source>
        <translation>Vencido desde {since}: {total} (sem multa nem juros cobrados).</translation>
    </message>
    <message>
        <source>This entry is not an accepted slip payment.</source>
        <translation>Este lançamento não é um pagamento de boleto aceito.</translation>
    </message>
    <message>
        <source>An amount must be a number.</source>
        <translation>Um valor deve ser um número.</translation>
    </message>
    <message>
        <source>Please enter a CPF or CNPJ.</source>
        <translation>Informe um CPF ou CNPJ.</translation>
    </message>
    <message>
        <source>This field is required.</source>
        <translation>Este campo é obrigatório.</translation>
    </message>
    <message>
        <source>This field must be text.</source>
        <translation>Este campo deve ser texto.</translation>
    </message>
    <message>
        <source>At most {max} characters (this has {length}).</source>
        <translation>No máximo {max} caracteres (este tem {length}).</translation>
    </message>
    <message>
        <source>Please enter a Pix key.</source>
        <translation>Informe uma chave Pix.</translation>
    </message>
    <message>
        <source>{asked} is a weekend day: the payment leaves on {to}, the next business day.</source>
        <translation>{asked} cai num fim de semana: o pagamento sai em {to}, o próximo dia útil.</translation>
    </message>
    <message>
        <source>{asked} is a holiday ({holiday}): the payment leaves on {to}, the next business day.</source>
        <translation>{asked} é feriado ({holiday}): o pagamento sai em {to}, o próximo dia útil.</translation>
    </message>
    <message>
        <source>{asked} is not a business day for this team: the payment leaves on {to}, the next business day.</source>
        <translation>{asked} não é dia útil para esta equipe: o pagamento sai em {to}, o próximo dia útil.</translation>
    </message>
    <message>
        <source>Enter a date (dd/mm/yyyy).</source>
        <translation>Informe uma data (dd/mm/aaaa).</translation>
    </message>
    <message>
        <source>{asked} has passed: a payment is scheduled for today ({today}) or later.</source>
        <translation>{asked} já passou: um pagamento é agendado para hoje ({today}) ou depois.</translation>
    </message>
    <message>
        <source>The send time is a time of day in Brasília, without a time zone.</source>
        <translation>O horário de envio é uma hora do dia em Brasília, sem fuso horário.</translation>
    </message>
    <message>
        <source>Choose how often the payment repeats.</source>
        <translation>Escolha com que frequência o pagamento se repete.</translation>
    </message>
    <message>
        <source>The interval must be a whole number from 1 to {maximum}.</source>
        <translation>O intervalo deve ser um número inteiro de 1 a {maximum}.</translation>
    </message>
    <message>
        <source>A monthly payment repeats on a day from 1 to 31 or on the last business day: choose one.</source>
        <translation>Um pagamento mensal se repete num dia de 1 a 31 ou no último dia útil: escolha um.</translation>
    </message>
    <message>
        <source>A day of the month is only for a monthly repetition.</source>
        <translation>Um dia do mês é só para uma repetição mensal.</translation>
    </message>
    <message>
        <source>A repetition ends on a date or after a number of times, not both.</source>
        <translation>Uma repetição termina numa data ou após um número de vezes, não ambos.</translation>
    </message>
    <message>
        <source>The repetition must end after its first payment.</source>
        <translation>A repetição deve terminar depois do primeiro pagamento.</translation>
    </message>
    <message>
        <source>The number of payments must be from 1 to {maximum}.</source>
        <translation>O número de pagamentos deve ser de 1 a {maximum}.</translation>
    </message>
    <message>
        <source>The new repetition&apos;s first payment ({first}) must come after the last one that stays ({kept}, approved or sent): start it later.</source>
        <translation>O primeiro pagamento da nova repetição ({first}) deve vir depois do último que permanece ({kept}, aprovado ou enviado): comece-a mais tarde.</translation>
    </message>
    <message>
        <source>This recurring payment is not known.</source>
        <translation>Este pagamento recorrente não é conhecido.</translation>
    </message>
    <message>
        <source>This recurring payment has ended: it can no longer be changed.</source>
        <translation>Este pagamento recorrente foi encerrado: não pode mais ser alterado.</translation>
    </message>
    <message>
        <source>Was due on {due} and was not sent (nothing was open to send it): send it now, move it to another day or cancel it.</source>
        <translation>Vencia em {due} e não foi enviado (nada estava aberto para enviá-lo): envie agora, mude para outro dia ou cancele.</translation>
    </message>
    <message>
        <source>The slip&apos;s amount is {now} today, not the {scheduled} scheduled: check it before it is paid.</source>
        <translation>O valor do boleto hoje é {now}, não os {scheduled} agendados: confira antes que seja pago.</translation>
    </message>
    <message>
        <source>“{typed}” is not a time of day: write it HH:MM, from 00:00 to 23:59.</source>
        <translation>“{typed}” não é uma hora do dia: escreva HH:MM, de 00:00 a 23:59.</translation>
    </message>
    <message>
        <source>The time to hold a payment the balance does not cover ({cutoff}) must come after the send time ({send_time}).</source>
        <translation>A hora de reter um pagamento que o saldo não cobre ({cutoff}) deve vir depois da hora de envio ({send_time}).</translation>
    </message>
    <message>
        <source>A slip&apos;s amount may change by R$ 0,00 up to {max}; not by less than zero.</source>
        <translation>O valor de um boleto pode mudar de R$ 0,00 até {max}; não menos que zero.</translation>
    </message>
    <message>
        <source>Type how many tries, a whole number from 1 to {max}.</source>
        <translation>Digite quantas tentativas, um número inteiro de 1 a {max}.</translation>
    </message>
    <message>
        <source>“{typed}” is not a date: write each non-business day as dd/mm/yyyy.</source>
        <translation>“{typed}” não é uma data: escreva cada dia não útil como dd/mm/aaaa.</translation>
    </message>
    <message>
        <source>At most {max} non-business days of your own can be kept.</source>
        <translation>No máximo {max} dias não úteis próprios podem ser guardados.</translation>
    </message>
    <message>
        <source>The slip is due on {due} and is scheduled for {pay}: fine and interest may apply, and a changed amount on that day holds it for you.</source>
        <translation>O boleto vence em {due} e está agendado para {pay}: podem incidir multa e juros, e um valor diferente nesse dia o retém para você.</translation>
    </message>
    <message>
        <source>The charge behind this QR Code can no longer be paid as scheduled ({amount}).</source>
        <translation>A cobrança deste QR Code não pode mais ser paga como agendado ({amount}).</translation>
    </message>
    <message>
        <source>The day&apos;s scheduled payments total {total} and the balance is {balance}: none was sent; choose which to send.</source>
        <translation>Os pagamentos agendados do dia somam {total} e o saldo é {balance}: nenhum foi enviado; escolha quais enviar.</translation>
    </message>
    <message>
        <source>The balance did not cover {amount} after {tries} tries: send it when there is money, move it or cancel it.</source>
        <translation>O saldo não cobriu {amount} após {tries} tentativas: envie quando houver saldo, mude a data ou cancele.</translation>
    </message>
    <message>
        <source>Payments scheduled for {day} total {total}, more than the balance ({balance}).</source>
        <translation>Os pagamentos agendados para {day} somam {total}, mais que o saldo ({balance}).</translation>
    </message>
    <message>
        <source>This payment is not a scheduled one: it has no pay date to change.</source>
        <translation>Este pagamento não é agendado: não tem data de pagamento a mudar.</translation>
    </message>
    <message>
        <source>This scheduled payment has already left or ended: it cannot change now.</source>
        <translation>Este pagamento agendado já saiu ou foi encerrado: não pode mais mudar.</translation>
    </message>
    <message>
        <source>This payment is scheduled for {pay_date}: the team database does not let it leave before that day.</source>
        <translation>Este pagamento está agendado para {pay_date}: o banco de dados da equipe não o deixa sair antes desse dia.</translation>
    </message>
    <message>
        <source>The pay date {pay_date} has passed for the team database (today is {today}).</source>
        <translation>A data de pagamento {pay_date} já passou para o banco de dados da equipe (hoje é {today}).</translation>
    </message>
    <message>
        <source>Only {maker}, who prepared this payment, moves its date (an approver may reject it).</source>
        <translation>Só {maker}, que preparou este pagamento, muda a data dele (um aprovador pode rejeitá-lo).</translation>
    </message>
    <message>
        <source>This recurring payment was set up by {maker}, or has ended: it is not yours to change.</source>
        <translation>Este pagamento recorrente foi criado por {maker}, ou já terminou: não cabe a você alterá-lo.</translation>
    </message>
    <message>
        <source>This key is registered to {owner} with another CPF/CNPJ: the bank would refuse the payment. Clear the document or check the key.</source>
        <translation>Esta chave está registrada para {owner} com outro CPF/CNPJ: o banco recusaria o pagamento. Apague o documento ou confirme a chave.</translation>
    </message>
    <message>
        <source>{detail} is not one of this payee&apos;s registered destinations.</source>
        <translation>{detail} não é um dos destinos cadastrados deste favorecido.</translation>
    </message>
    <message>
        <source>Type the payee&apos;s name.</source>
        <translation>Digite o nome do favorecido.</translation>
    </message>
    <message>
        <source>The payee&apos;s name has at most {max} characters.</source>
        <translation>O nome do favorecido tem no máximo {max} caracteres.</translation>
    </message>
    <message>
        <source>This is not a valid CPF or CNPJ.</source>
        <translation>Este não é um CPF ou CNPJ válido.</translation>
    </message>
    <message>
        <source>The tag “{tag}” is not accepted (letters or digits, at most {max} characters).</source>
        <translation>A etiqueta “{tag}” não é aceita (letras ou números, no máximo {max} caracteres).</translation>
    </message>
    <message>
        <source>A payee has at most {max} tags.</source>
        <translation>Um favorecido tem no máximo {max} etiquetas.</translation>
    </message>
    <message>
        <source>Type the Pix key.</source>
        <translation>Digite a chave Pix.</translation>
    </message>
    <message>
        <source>This is not a valid Pix key (CPF, CNPJ, e-mail, phone +55 or random key).</source>
        <translation>Esta não é uma chave Pix válida (CPF, CNPJ, e-mail, telefone +55 ou chave aleatória).</translation>
    </message>
    <message>
        <source>“{value}” is a number in scientific notation: format the column as text in the spreadsheet and export it again.</source>
        <translation>“{value}” é um número em notação científica: formate a coluna como texto na planilha e exporte de novo.</translation>
    </message>
    <message>
        <source>No bank in the Central Bank&apos;s list has the ISPB {ispb}.</source>
        <translation>Nenhum banco da lista do Banco Central tem o ISPB {ispb}.</translation>
    </message>
    <message>
        <source>The branch is 1 to 4 digits, without its check digit.</source>
        <translation>A agência tem de 1 a 4 dígitos, sem o dígito verificador.</translation>
    </message>
    <message>
        <source>Choose the account type: checking, savings, salary or payment account.</source>
        <translation>Escolha o tipo de conta: corrente, poupança, salário ou conta de pagamento.</translation>
    </message>
    <message>
        <source>This payee is no longer in the registry.</source>
        <translation>Este favorecido não está mais no cadastro.</translation>
    </message>
    <message>
        <source>A payee&apos;s CPF or CNPJ does not change: register another payee for another document.</source>
        <translation>O CPF ou CNPJ de um favorecido não muda: cadastre outro favorecido para outro documento.</translation>
    </message>
    <message>
        <source>This destination is no longer in the registry.</source>
        <translation>Este destino não está mais no cadastro.</translation>
    </message>
    <message>
        <source>{detail} is already one of this payee&apos;s destinations.</source>
        <translation>{detail} já é um dos destinos deste favorecido.</translation>
    </message>
    <message>
        <source>{detail} is registered to {owner}, not to this payee.</source>
        <translation>{detail} está registrada para {owner}, não para este favorecido.</translation>
    </message>
    <message>
        <source>This destination is not blocked.</source>
        <translation>Este destino não está bloqueado.</translation>
    </message>
    <message>
        <source>This change of a destination is not known.</source>
        <translation>Esta alteração de destino não é conhecida.</translation>
    </message>
    <message>
        <source>This change does not wait for approval.</source>
        <translation>Esta alteração não aguarda aprovação.</translation>
    </message>
    <message>
        <source>Say why.</source>
        <translation>Informe o motivo.</translation>
    </message>
    <message>
        <source>This key is registered to {owner}, not to {payee}.</source>
        <translation>Esta chave está registrada para {owner}, não para {payee}.</translation>
    </message>
    <message>
        <source>{detail} was blocked in the payee registry ({owner}) after this payment was scheduled: it was not sent. Once it is unblocked, send it now, move it or cancel it.</source>
        <translation>{detail} foi bloqueada no cadastro de favorecidos ({owner}) depois que este pagamento foi agendado: ele não foi enviado. Depois de desbloqueada, envie agora, mude a data ou cancele.</translation>
    </message>
    <message>
        <source>The payment to {detail} settled and the bank names {name} ({document}) as its creditor, not the registered payee. The destination is marked changed: check it with the payee before paying it again.</source>
        <translation>O pagamento para {detail} foi liquidado e o banco indica {name} ({document}) como recebedor, não o favorecido cadastrado. O destino foi marcado como alterado: confirme com o favorecido antes de pagar de novo.</translation>
    </message>
    <message>
        <source>This account is registered to {owner}, not to {payee}.</source>
        <translation>Esta conta está registrada para {owner}, não para {payee}.</translation>
    </message>
    <message>
        <source>{detail} was registered or changed on {at} and no settled payment has confirmed it yet: check it with {owner} by phone before paying.</source>
        <translation>{detail} foi cadastrada ou alterada em {at} e nenhum pagamento liquidado a confirmou ainda: confirme com {owner} por telefone antes de pagar.</translation>
    </message>
    <message>
        <source>Pix key added on {at} by {by}, approved by {approved_by}.</source>
        <translation>Chave Pix adicionada em {at} por {by}, aprovada por {approved_by}.</translation>
    </message>
    <message>
        <source>Pix key changed on {at} by {by}, approved by {approved_by}.</source>
        <translation>Chave Pix alterada em {at} por {by}, aprovada por {approved_by}.</translation>
    </message>
    <message>
        <source>Pix key unblocked on {at} by {by}, approved by {approved_by}.</source>
        <translation>Chave Pix desbloqueada em {at} por {by}, aprovada por {approved_by}.</translation>
    </message>
    <message>
        <source>Pix key paid to someone other than {payee} on {at}: check it before paying again.</source>
        <translation>Chave Pix paga a outra pessoa que não {payee} em {at}: confirme antes de pagar de novo.</translation>
    </message>
    <message>
        <source>Account added on {at} by {by}, approved by {approved_by}.</source>
        <translation>Conta adicionada em {at} por {by}, aprovada por {approved_by}.</translation>
    </message>
    <message>
        <source>Account changed on {at} by {by}, approved by {approved_by}.</source>
        <translation>Conta alterada em {at} por {by}, aprovada por {approved_by}.</translation>
    </message>
    <message>
        <source>Account unblocked on {at} by {by}, approved by {approved_by}.</source>
        <translation>Conta desbloqueada em {at} por {by}, aprovada por {approved_by}.</translation>
    </message>
    <message>
        <source>Account paid to someone other than {payee} on {at}: check it before paying again.</source>
        <translation>Conta paga a outra pessoa que não {payee} em {at}: confirme antes de pagar de novo.</translation>
    </message>
    <message>
        <source>The file has no column {columns}.</source>
        <translation>O arquivo não tem a coluna {columns}.</translation>
    </message>
    <message>
        <source>This line has {found} columns; the header has {expected}.</source>
        <translation>Esta linha tem {found} colunas; o cabeçalho tem {expected}.</translation>
    </message>
    <message>
        <source>The file has too many lines: import it in parts.</source>
        <translation>O arquivo tem linhas demais: importe-o em partes.</translation>
    </message>
    <message>
        <source>{detail} is given to another payee on line {line} of this file.</source>
        <translation>{detail} é atribuída a outro favorecido na linha {line} deste arquivo.</translation>
    </message>
    <message>
        <source>The period starts on {start}, after its end on {end}: swap the dates.</source>
        <translation>O período começa em {start}, depois do seu fim em {end}: inverta as datas.</translation>
    </message>
    <message>
        <source>The file {file} exists already: choose another name.</source>
        <translation>O arquivo {file} já existe: escolha outro nome.</translation>
    </message>
    <message>
        <source>{detail} is blocked in the registry ({owner}): it is not paid.</source>
        <translation>{detail} está bloqueada no cadastro ({owner}): não é paga.</translation>
    </message>
    <message>
        <source>You prepared this change: another person approves it.</source>
        <translation>Você preparou esta alteração: outra pessoa a aprova.</translation>
    </message>
    <message>
        <source>Only {maker}, who prepared this change, withdraws it.</source>
        <translation>Só {maker}, que preparou esta alteração, pode retirá-la.</translation>
    </message>
    <message>
        <source>This change does not wait for approval any more.</source>
        <translation>Esta alteração não aguarda mais aprovação.</translation>
    </message>
    <message>
        <source>A change of {detail} already waits for approval.</source>
        <translation>Uma alteração de {detail} já aguarda aprovação.</translation>
    </message>
    <message>
        <source>{detail} is blocked in the registry ({payee}): the team database does not pay it.</source>
        <translation>{detail} está bloqueada no cadastro ({payee}): o banco de dados da equipe não a paga.</translation>
    </message>
    <message>
        <source>{detail} is not in the payee registry: this team pays only registered destinations.</source>
        <translation>{detail} não está no cadastro de favorecidos: esta equipe só paga destinos cadastrados.</translation>
    </message>
    <message>
        <source>This payment has not settled: the bank&apos;s creditor is not known yet.</source>
        <translation>Este pagamento não foi liquidado: o recebedor informado pelo banco ainda não é conhecido.</translation>
    </message>
    <message>
        <source>The bank refused it: the Pix key {key} does not belong to the registered payee&apos;s CPF/CNPJ ({document}). Nothing was paid; check the key with the payee.</source>
        <translation>O banco recusou: a chave Pix {key} não pertence ao CPF/CNPJ do favorecido cadastrado ({document}). Nada foi pago; confirme a chave com o favorecido.</translation>
    </message>
    <message>
        <source>Please enter an amount.</source>
        <translation>Informe um valor.</translation>
    </message>
    <message>
        <source>The amount is too long to be a valid amount.</source>
        <translation>O texto é longo demais para ser um valor.</translation>
    </message>
    <message>
        <source>The amount cannot be negative.</source>
        <translation>O valor não pode ser negativo.</translation>
    </message>
    <message>
        <source>The amount must have at most 2 decimal places.</source>
        <translation>O valor deve ter no máximo 2 casas decimais.</translation>
    </message>
    <message>
        <source>The amount is too large (at most {maximum}).</source>
        <translation>O valor é alto demais (no máximo {maximum}).</translation>
    </message>
    <message>
        <source>The amount must be a finite number.</source>
        <translation>O valor deve ser um número finito.</translation>
    </message>
    <message>
        <source>The amount may only contain the digits 0-9, dots and a comma.</source>
        <translation>O valor só pode conter os dígitos 0-9, pontos e uma vírgula.</translation>
    </message>
    <message>
        <source>The amount can have only one decimal comma.</source>
        <translation>O valor só pode ter uma vírgula decimal.</translation>
    </message>
    <message>
        <source>Dots must come before the decimal comma (e.g. 1.234,56).</source>
        <translation>Os pontos devem vir antes da vírgula decimal (por exemplo, 1.234,56).</translation>
    </message>
    <message>
        <source>The amount must have digits before and after the separator (e.g. 0,50).</source>
        <translation>O valor deve ter dígitos antes e depois do separador (por exemplo, 0,50).</translation>
    </message>
    <message>
        <source>The thousands separators are misplaced (write e.g. 1.234.567,89 or 1234567,89).</source>
        <translation>Os separadores de milhar estão fora de lugar (escreva, por exemplo, 1.234.567,89 ou 1234567,89).</translation>
    </message>
    <message>
        <source>This is not a valid amount; write it like 1.234,56.</source>
        <translation>Isto não é um valor válido; escreva como 1.234,56.</translation>
    </message>
    <message>
        <source>The bank sent true/false where an amount was expected.</source>
        <translation>O banco enviou verdadeiro/falso onde se esperava um valor.</translation>
    </message>
    <message>
        <source>The bank did not send an amount.</source>
        <translation>O banco não enviou o valor.</translation>
    </message>
    <message>
        <source>The bank sent an amount that is not a number: {text}.</source>
        <translation>O banco enviou um valor que não é um número: {text}.</translation>
    </message>
    <message>
        <source>The bank sent a {type} where an amount was expected.</source>
        <translation>O banco enviou um {type} onde se esperava um valor.</translation>
    </message>
    <message>
        <source>An amount was read as a floating-point number, which can lose cents; it is not accepted.</source>
        <translation>Um valor foi lido como número de ponto flutuante, que pode perder centavos; ele não é aceito.</translation>
    </message>
    <message>
        <source>A CPF has 11 digits and a CNPJ has 14 characters; please check it.</source>
        <translation>Um CPF tem 11 dígitos e um CNPJ tem 14 caracteres; confira, por favor.</translation>
    </message>
    <message>
        <source>The CPF base must be exactly 9 digits.</source>
        <translation>A base do CPF deve ter exatamente 9 dígitos.</translation>
    </message>
    <message>
        <source>The CNPJ base must be exactly 12 characters (0-9, A-Z).</source>
        <translation>A base do CNPJ deve ter exatamente 12 caracteres (0-9, A-Z).</translation>
    </message>
    <message>
        <source>A CPF must have exactly 11 digits.</source>
        <translation>Um CPF deve ter exatamente 11 dígitos.</translation>
    </message>
    <message>
        <source>A CPF cannot have all digits equal.</source>
        <translation>Um CPF não pode ter todos os dígitos iguais.</translation>
    </message>
    <message>
        <source>The CPF check digits do not match; please check the number.</source>
        <translation>Os dígitos verificadores do CPF não conferem; confira o número, por favor.</translation>
    </message>
    <message>
        <source>A CNPJ must have exactly 14 characters.</source>
        <translation>Um CNPJ deve ter exatamente 14 caracteres.</translation>
    </message>
    <message>
        <source>A CNPJ has 12 letters (A-Z) or digits followed by 2 check digits (0-9); this one has other characters.</source>
        <translation>Um CNPJ tem 12 letras (A-Z) ou dígitos seguidos de 2 dígitos verificadores (0-9); este tem outros caracteres.</translation>
    </message>
    <message>
        <source>A CNPJ cannot have all characters equal.</source>
        <translation>Um CNPJ não pode ter todos os caracteres iguais.</translation>
    </message>
    <message>
        <source>The CNPJ check digits do not match; please check the number.</source>
        <translation>Os dígitos verificadores do CNPJ não conferem; confira o número, por favor.</translation>
    </message>
    <message>
        <source>This CPF/CNPJ is in scientific notation ({text}): a spreadsheet turned it into a number and lost its last digits. Format the column as text in Excel and type it again.</source>
        <translation>Este CPF/CNPJ está em notação científica ({text}): uma planilha o transformou em número e perdeu os últimos dígitos. Formate a coluna como texto no Excel e digite-o de novo.</translation>
    </message>
    <message>
        <source>This {kind} has {digits} digits: a spreadsheet probably dropped its leading zero (did you mean {padded}?). Format the column as text and type it again.</source>
        <translation>Este {kind} tem {digits} dígitos: uma planilha provavelmente removeu o zero à esquerda (quis dizer {padded}?). Formate a coluna como texto e digite-o de novo.</translation>
    </message>
    <message>
        <source>A Pix key has at most {maximum} characters.</source>
        <translation>Uma chave Pix tem no máximo {maximum} caracteres.</translation>
    </message>
    <message>
        <source>This is not a Pix key: expected a CPF, CNPJ, e-mail, phone number or random key.</source>
        <translation>Isto não é uma chave Pix: esperava-se um CPF, CNPJ, e-mail, celular ou chave aleatória.</translation>
    </message>
    <message>
        <source>These 11 digits are neither a valid CPF (the check digits do not match) nor a mobile number (DDD followed by 9).</source>
        <translation>Estes 11 dígitos não são um CPF válido (os dígitos verificadores não conferem) nem um celular (DDD seguido de 9).</translation>
    </message>
    <message>
        <source>This is not a Pix key: a CPF has 11 digits, a CNPJ 14 characters and a phone number a DDD plus 8 or 9 digits.</source>
        <translation>Isto não é uma chave Pix: um CPF tem 11 dígitos, um CNPJ 14 caracteres e um telefone o DDD mais 8 ou 9 dígitos.</translation>
    </message>
    <message>
        <source>Only Brazilian phone numbers (+55) can be Pix keys here.</source>
        <translation>Aqui só telefones brasileiros (+55) podem ser chaves Pix.</translation>
    </message>
    <message>
        <source>A phone number may only contain digits (and +, spaces, (), -).</source>
        <translation>Um telefone só pode conter dígitos (e +, espaços, (), -).</translation>
    </message>
    <message>
        <source>A phone key is a DDD (2 digits) plus an 8- or 9-digit number, e.g. +55 11 98765-4321.</source>
        <translation>Uma chave de telefone é o DDD (2 dígitos) mais um número de 8 ou 9 dígitos, por exemplo +55 11 98765-4321.</translation>
    </message>
    <message>
        <source>{ddd} is not a Brazilian area code (DDD).</source>
        <translation>{ddd} não é um DDD brasileiro.</translation>
    </message>
    <message>
        <source>This is not a valid Brazilian phone number: a 9-digit number must start with 9 and an 8-digit number cannot start with 0 or 1.</source>
        <translation>Este não é um telefone brasileiro válido: um número de 9 dígitos deve começar com 9 e um de 8 dígitos não pode começar com 0 ou 1.</translation>
    </message>
    <message>
        <source>An e-mail Pix key may only contain ASCII letters, digits and symbols.</source>
        <translation>Uma chave Pix de e-mail só pode conter letras sem acento, dígitos e símbolos ASCII.</translation>
    </message>
    <message>
        <source>An e-mail address has exactly one @.</source>
        <translation>Um endereço de e-mail tem exatamente um @.</translation>
    </message>
    <message>
        <source>This is not a valid e-mail address.</source>
        <translation>Este não é um endereço de e-mail válido.</translation>
    </message>
    <message>
        <source>A random Pix key (EVP) is a UUID like 123e4567-e89b-12d3-a456-426614174000.</source>
        <translation>Uma chave Pix aleatória (EVP) é um UUID como 123e4567-e89b-12d3-a456-426614174000.</translation>
    </message>
    <message>
        <source>This is a {given}, not a {expected}.</source>
        <translation>Isto é um {given}, não um {expected}.</translation>
    </message>
    <message>
        <source>A txid has {minimum} to {maximum} characters, not {length}.</source>
        <translation>Um txid tem de {minimum} a {maximum} caracteres, não {length}.</translation>
    </message>
    <message>
        <source>A txid has only letters (A-Z, a-z) and digits (0-9): no accents, spaces or symbols.</source>
        <translation>Um txid tem apenas letras (A-Z, a-z) e dígitos (0-9): sem acentos, espaços ou símbolos.</translation>
    </message>
    <message>
        <source>Type the id of an existing location.</source>
        <translation>Digite o id de uma localização existente.</translation>
    </message>
    <message>
        <source>A location id has only digits (as the list of locations shows it).</source>
        <translation>O id de uma localização tem apenas dígitos (como a lista de localizações o mostra).</translation>
    </message>
    <message>
        <source>There is no location with this id: an id is a whole number from 1.</source>
        <translation>Não há localização com este id: um id é um número inteiro a partir de 1.</translation>
    </message>
    <message>
        <source>The ISPB must be exactly 8 characters, digits or upper-case letters (e.g. 00038166).</source>
        <translation>O ISPB deve ter exatamente 8 caracteres, dígitos ou letras maiúsculas (por exemplo, 00038166).</translation>
    </message>
    <message>
        <source>Please enter an idRec.</source>
        <translation>Informe um idRec.</translation>
    </message>
    <message>
        <source>An idRec has {expected} characters, this one has {length}.</source>
        <translation>Um idRec tem {expected} caracteres; este tem {length}.</translation>
    </message>
    <message>
        <source>An idRec starts with the letter R.</source>
        <translation>Um idRec começa com a letra R.</translation>
    </message>
    <message>
        <source>The second character of an idRec must be R (retries allowed) or N (not allowed).</source>
        <translation>O segundo caractere de um idRec deve ser R (novas tentativas permitidas) ou N (não permitidas).</translation>
    </message>
    <message>
        <source>Characters 3 to 10 of an idRec (the ISPB) must be digits or upper-case letters.</source>
        <translation>Os caracteres 3 a 10 de um idRec (o ISPB) devem ser dígitos ou letras maiúsculas.</translation>
    </message>
    <message>
        <source>Characters 11 to 18 of an idRec must be a real date written yyyyMMdd.</source>
        <translation>Os caracteres 11 a 18 de um idRec devem ser uma data real escrita aaaaMMdd.</translation>
    </message>
    <message>
        <source>The last 11 characters of an idRec must be letters or digits.</source>
        <translation>Os últimos 11 caracteres de um idRec devem ser letras ou dígitos.</translation>
    </message>
    <message>
        <source>The Pix code is empty.</source>
        <translation>O código Pix está vazio.</translation>
    </message>
    <message>
        <source>The text is too long to be a Pix code ({length} characters; at most {maximum}).</source>
        <translation>O texto é longo demais para ser um código Pix ({length} caracteres; no máximo {maximum}).</translation>
    </message>
    <message>
        <source>The Pix code contains invisible or control characters (such as line breaks): copy it again as a single line.</source>
        <translation>O código Pix contém caracteres invisíveis ou de controle (como quebras de linha): copie-o de novo em uma única linha.</translation>
    </message>
    <message>
        <source>The Pix code is damaged: it has no valid field header at character {position}. It was probably copied incompletely or altered.</source>
        <translation>O código Pix está danificado: não há um cabeçalho de campo válido no caractere {position}. Provavelmente foi copiado pela metade ou alterado.</translation>
    </message>
    <message>
        <source>The Pix code is incomplete: its field {field_id} announces {length} characters but only {remaining} remain. It was probably copied incompletely.</source>
        <translation>O código Pix está incompleto: o campo {field_id} anuncia {length} caracteres, mas restam só {remaining}. Provavelmente foi copiado pela metade.</translation>
    </message>
    <message>
        <source>The Pix code is invalid: it contains field {field_id} twice.</source>
        <translation>O código Pix é inválido: contém o campo {field_id} duas vezes.</translation>
    </message>
    <message>
        <source>This is not a Pix code: it must start with 000201 (payload format indicator).</source>
        <translation>Isto não é um código Pix: ele deve começar com 000201 (indicador de formato).</translation>
    </message>
    <message>
        <source>The Pix code does not end with its check digits (CRC): it was probably copied incompletely.</source>
        <translation>O código Pix não termina com seus dígitos verificadores (CRC): provavelmente foi copiado pela metade.</translation>
    </message>
    <message>
        <source>The Pix code&apos;s check digits (CRC) do not match: it was copied incompletely or altered.</source>
        <translation>Os dígitos verificadores (CRC) do código Pix não conferem: ele foi copiado pela metade ou alterado.</translation>
    </message>
    <message>
        <source>The Pix code&apos;s point of initiation &quot;{point}&quot; is not valid (expected 11 or 12).</source>
        <translation>O ponto de iniciação &quot;{point}&quot; do código Pix não é válido (esperado 11 ou 12).</translation>
    </message>
    <message>
        <source>The Pix code is invalid: it contains more than one Pix account.</source>
        <translation>O código Pix é inválido: contém mais de uma conta Pix.</translation>
    </message>
    <message>
        <source>This is not a Pix code: it has no Pix account information (br.gov.bcb.pix). It may belong to another payment arrangement, such as a card.</source>
        <translation>Isto não é um código Pix: não há informação de conta Pix (br.gov.bcb.pix). Pode ser de outro arranjo de pagamento, como um cartão.</translation>
    </message>
    <message>
        <source>The Pix code announces a Pix Automático recurrence but gives no address for it.</source>
        <translation>O código Pix anuncia uma recorrência do Pix Automático, mas não dá o endereço dela.</translation>
    </message>
    <message>
        <source>The Pix code is invalid: it carries both a Pix key and a charge address.</source>
        <translation>O código Pix é inválido: traz ao mesmo tempo uma chave Pix e um endereço de cobrança.</translation>
    </message>
    <message>
        <source>The Pix code has neither a Pix key nor a charge address.</source>
        <translation>O código Pix não tem chave Pix nem endereço de cobrança.</translation>
    </message>
    <message>
        <source>The Pix code is not in Brazilian reais (currency code must be 986, found {found}).</source>
        <translation>O código Pix não está em reais (o código da moeda deve ser 986; veio {found}).</translation>
    </message>
    <message>
        <source>The Pix code is not from Brazil (country code must be BR, found {found}).</source>
        <translation>O código Pix não é do Brasil (o código do país deve ser BR; veio {found}).</translation>
    </message>
    <message>
        <source>The Pix code does not name the receiver (merchant name is missing).</source>
        <translation>O código Pix não informa o recebedor (falta o nome do recebedor).</translation>
    </message>
    <message>
        <source>The Pix code does not give the receiver&apos;s city.</source>
        <translation>O código Pix não informa a cidade do recebedor.</translation>
    </message>
    <message>
        <source>The Pix code&apos;s amount &quot;{text}&quot; is not valid: it must be a number with a dot and at most two decimal places, such as 100.50.</source>
        <translation>O valor &quot;{text}&quot; do código Pix não é válido: deve ser um número com ponto e no máximo duas casas decimais, como 100.50.</translation>
    </message>
    <message>
        <source>The Pix code&apos;s amount is too large ({length} characters; at most {maximum}).</source>
        <translation>O valor do código Pix é grande demais ({length} caracteres; no máximo {maximum}).</translation>
    </message>
    <message>
        <source>A Pix code needs exactly one of a Pix key or a charge address (or neither, for a Pix Automático recurrence-only code).</source>
        <translation>Um código Pix precisa de exatamente uma chave Pix ou um endereço de cobrança (ou nenhum dos dois, num código só de recorrência do Pix Automático).</translation>
    </message>
    <message>
        <source>This text contains characters that cannot be used in a Pix code.</source>
        <translation>Este texto contém caracteres que não podem ser usados num código Pix.</translation>
    </message>
    <message>
        <source>This is too long for a Pix code ({length} characters; at most {maximum}).</source>
        <translation>Isto é longo demais para um código Pix ({length} caracteres; no máximo {maximum}).</translation>
    </message>
    <message>
        <source>This must be non-empty plain text without accents.</source>
        <translation>Isto deve ser um texto simples, não vazio e sem acentos.</translation>
    </message>
    <message>
        <source>This must be an https address.</source>
        <translation>Isto deve ser um endereço https.</translation>
    </message>
    <message>
        <source>The amount of a Pix code must be greater than zero.</source>
        <translation>O valor de um código Pix deve ser maior que zero.</translation>
    </message>
    <message>
        <source>This amount cannot be used in a Pix code: use at most two decimal places and at most {maximum} characters.</source>
        <translation>Este valor não pode ser usado num código Pix: use no máximo duas casas decimais e no máximo {maximum} caracteres.</translation>
    </message>
    <message>
        <source>The receiver name of a Pix code cannot be empty.</source>
        <translation>O nome do recebedor de um código Pix não pode ficar vazio.</translation>
    </message>
    <message>
        <source>The receiver city of a Pix code cannot be empty.</source>
        <translation>A cidade do recebedor de um código Pix não pode ficar vazia.</translation>
    </message>
    <message>
        <source>The receiver name has {length} characters; a Pix code allows at most {maximum}.</source>
        <translation>O nome do recebedor tem {length} caracteres; um código Pix permite no máximo {maximum}.</translation>
    </message>
    <message>
        <source>The receiver city has {length} characters; a Pix code allows at most {maximum}.</source>
        <translation>A cidade do recebedor tem {length} caracteres; um código Pix permite no máximo {maximum}.</translation>
    </message>
    <message>
        <source>The Pix key, description and address together are too long for a Pix code ({length} characters; at most {maximum}): shorten the description.</source>
        <translation>A chave Pix, a descrição e o endereço juntos são longos demais para um código Pix ({length} caracteres; no máximo {maximum}): encurte a descrição.</translation>
    </message>
    <message>
        <source>The transaction id (txid) of a Pix code must have 1 to {maximum} letters or digits, without spaces or symbols.</source>
        <translation>O identificador da transação (txid) de um código Pix deve ter de 1 a {maximum} letras ou dígitos, sem espaços nem símbolos.</translation>
    </message>
    <message>
        <source>The postal code (CEP) must have 8 digits.</source>
        <translation>O CEP deve ter 8 dígitos.</translation>
    </message>
    <message>
        <source>The Pix code would be longer than {maximum} characters.</source>
        <translation>O código Pix teria mais de {maximum} caracteres.</translation>
    </message>
    <message>
        <source>The boleto code is empty.</source>
        <translation>O código do boleto está vazio.</translation>
    </message>
    <message>
        <source>The boleto code may contain only digits (dots, spaces and hyphens are ignored).</source>
        <translation>O código do boleto só pode conter dígitos (pontos, espaços e hífens são ignorados).</translation>
    </message>
    <message>
        <source>A slip code has only digits (dots, spaces and hyphens are ignored).</source>
        <translation>O código do boleto tem só dígitos (pontos, espaços e hífens são ignorados).</translation>
    </message>
    <message>
        <source>A slip code has at most {max} digits; this one has {digits}.</source>
        <translation>O código do boleto tem no máximo {max} dígitos; este tem {digits}.</translation>
    </message>
    <message>
        <source>The boleto code has {digits} digits; a digitable line has 47 (bank slip) or 48 (utility/tax slip) digits and a barcode has 44.</source>
        <translation>O código do boleto tem {digits} dígitos; uma linha digitável tem 47 (boleto bancário) ou 48 (conta de consumo/tributo) dígitos e um código de barras tem 44.</translation>
    </message>
    <message>
        <source>A boleto barcode has 44 digits; this one has {digits}.</source>
        <translation>Um código de barras de boleto tem 44 dígitos; este tem {digits}.</translation>
    </message>
    <message>
        <source>A boleto digitable line has 47 or 48 digits; this one has {digits}.</source>
        <translation>Uma linha digitável de boleto tem 47 ou 48 dígitos; esta tem {digits}.</translation>
    </message>
    <message>
        <source>Block {block} of the boleto line has a wrong check digit: a digit was probably mistyped.</source>
        <translation>O bloco {block} da linha do boleto tem o dígito verificador errado: provavelmente um dígito foi digitado errado.</translation>
    </message>
    <message>
        <source>The boleto&apos;s general check digit does not match: a digit was probably mistyped.</source>
        <translation>O dígito verificador geral do boleto não confere: provavelmente um dígito foi digitado errado.</translation>
    </message>
    <message>
        <source>This bank slip is not valid: bank codes never start with 8 (that is reserved for utility/tax slips). Check that it was typed correctly.</source>
        <translation>Este boleto bancário não é válido: códigos de banco nunca começam com 8 (reservado a contas de consumo e tributos). Confira se foi digitado corretamente.</translation>
    </message>
    <message>
        <source>This boleto is not in Brazilian reais (currency digit {found}, expected 9).</source>
        <translation>Este boleto não está em reais (dígito da moeda {found}, esperado 9).</translation>
    </message>
    <message>
        <source>A 48-digit line must be a utility/tax (convênio) slip, which starts with 8. Check that it was typed correctly.</source>
        <translation>Uma linha de 48 dígitos deve ser de conta de consumo ou tributo (convênio), que começa com 8. Confira se foi digitada corretamente.</translation>
    </message>
    <message>
        <source>This utility/tax slip is not valid: its third digit must be 6, 7, 8 or 9 (found {found}). Check that it was typed correctly.</source>
        <translation>Esta conta de consumo/tributo não é válida: o terceiro dígito deve ser 6, 7, 8 ou 9 (veio {found}). Confira se foi digitada corretamente.</translation>
    </message>
    <message>
        <source>Block {block} of the slip&apos;s line has a wrong check digit: a digit was probably mistyped.</source>
        <translation>O bloco {block} da linha da conta tem o dígito verificador errado: provavelmente um dígito foi digitado errado.</translation>
    </message>
    <message>
        <source>The slip&apos;s general check digit (4th digit of the barcode) does not match: a digit was probably mistyped.</source>
        <translation>O dígito verificador geral da conta (4º dígito do código de barras) não confere: provavelmente um dígito foi digitado errado.</translation>
    </message>
    <message>
        <source>A boleto cannot be due on {due} (before {first}).</source>
        <translation>Um boleto não pode vencer em {due} (antes de {first}).</translation>
    </message>
    <message>
        <source>A boleto due-date factor must have 4 digits (got {factor}).</source>
        <translation>O fator de vencimento de um boleto deve ter 4 dígitos (veio {factor}).</translation>
    </message>
    <message>
        <source>The bank code must have 3 digits and cannot start with 8.</source>
        <translation>O código do banco deve ter 3 dígitos e não pode começar com 8.</translation>
    </message>
    <message>
        <source>The bank&apos;s free field (campo livre) must have 25 digits.</source>
        <translation>O campo livre do banco deve ter 25 dígitos.</translation>
    </message>
    <message>
        <source>A boleto amount must be between R$ 0,00 and {maximum}.</source>
        <translation>O valor de um boleto deve estar entre R$ 0,00 e {maximum}.</translation>
    </message>
    <message>
        <source>A boleto amount has at most two decimal places.</source>
        <translation>O valor de um boleto tem no máximo duas casas decimais.</translation>
    </message>
    <message>
        <source>A boleto cannot be due on {due} (factor 0 means no due date).</source>
        <translation>Um boleto não pode vencer em {due} (o fator 0 significa sem vencimento).</translation>
    </message>
    <message>
        <source>A profile needs a name.</source>
        <translation>Um perfil precisa de um nome.</translation>
    </message>
    <message>
        <source>A profile name has at most {max} characters.</source>
        <translation>Um nome de perfil tem no máximo {max} caracteres.</translation>
    </message>
    <message>
        <source>A profile name cannot start or end with a space.</source>
        <translation>Um nome de perfil não pode começar nem terminar com espaço.</translation>
    </message>
    <message>
        <source>The profile name “{name}” may contain only letters, digits, spaces, &apos;-&apos; and &apos;_&apos;.</source>
        <translation>O nome de perfil “{name}” só pode conter letras, dígitos, espaços, &apos;-&apos; e &apos;_&apos;.</translation>
    </message>
    <message>
        <source>“{name}” is reserved by Windows and cannot name a profile.</source>
        <translation>“{name}” é reservado pelo Windows e não pode ser nome de perfil.</translation>
    </message>
    <message>
        <source>A profile with this name already exists.</source>
        <translation>Já existe um perfil com este nome.</translation>
    </message>
    <message>
        <source>The profile cannot be saved: {count} fields need attention.</source>
        <translation>O perfil não pode ser salvo: {count} campos precisam de atenção.</translation>
    </message>
    <message>
        <source>This value is not accepted here.</source>
        <translation>Este valor não é aceito aqui.</translation>
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
        <source>Enter the client id the bank gave you.</source>
        <translation>Informe o client id fornecido pelo banco.</translation>
    </message>
    <message>
        <source>Choose the certificate (.pfx) file.</source>
        <translation>Escolha o arquivo do certificado (.pfx).</translation>
    </message>
    <message>
        <source>Choose the CA file.</source>
        <translation>Escolha o arquivo da CA.</translation>
    </message>
    <message>
        <source>The file {path} does not exist.</source>
        <translation>O arquivo {path} não existe.</translation>
    </message>
    <message>
        <source>A Pix key cannot be empty: remove the extra comma.</source>
        <translation>Uma chave Pix não pode ficar vazia: retire a vírgula a mais.</translation>
    </message>
    <message>
        <source>A Pix key has at most {max} characters.</source>
        <translation>Uma chave Pix tem no máximo {max} caracteres.</translation>
    </message>
    <message>
        <source>Enter the proxy&apos;s address (http://host:port).</source>
        <translation>Informe o endereço do proxy (http://host:porta).</translation>
    </message>
    <message>
        <source>A proxy address starts with http:// or https://.</source>
        <translation>Um endereço de proxy começa com http:// ou https://.</translation>
    </message>
    <message>
        <source>Add the proxy&apos;s port, as in http://proxy.example:8080.</source>
        <translation>Inclua a porta do proxy, como em http://proxy.example:8080.</translation>
    </message>
    <message>
        <source>A proxy address is only http://host:port, with no path.</source>
        <translation>Um endereço de proxy é apenas http://host:porta, sem caminho.</translation>
    </message>
    <message>
        <source>This is not a valid proxy address (http://host:port).</source>
        <translation>Este não é um endereço de proxy válido (http://host:porta).</translation>
    </message>
    <message>
        <source>A proxy&apos;s user name and password cannot be kept in the profile (it holds no secret): leave them out and ask for the bank&apos;s hosts to be let through.</source>
        <translation>O usuário e a senha de um proxy não podem ficar no perfil (ele não guarda segredos): retire-os e peça que os hosts do banco sejam liberados no proxy.</translation>
    </message>
    <message>
        <source>Enter the team database&apos;s host name or address.</source>
        <translation>Informe o nome ou o endereço do host do banco de dados da equipe.</translation>
    </message>
    <message>
        <source>Enter the database&apos;s name.</source>
        <translation>Informe o nome do banco de dados.</translation>
    </message>
    <message>
        <source>Enter your own login on the team database.</source>
        <translation>Informe o seu próprio login no banco de dados da equipe.</translation>
    </message>
    <message>
        <source>No spaces here.</source>
        <translation>Sem espaços aqui.</translation>
    </message>
    <message>
        <source>A client certificate needs its key file.</source>
        <translation>Um certificado de cliente precisa do arquivo da chave dele.</translation>
    </message>
    <message>
        <source>A key file needs its client certificate.</source>
        <translation>Um arquivo de chave precisa do certificado de cliente dele.</translation>
    </message>
    <message>
        <source>There is no system keyring on this computer: choose “Ask at every unlock”.</source>
        <translation>Não há chaveiro do sistema neste computador: escolha “Perguntar a cada desbloqueio”.</translation>
    </message>
    <message>
        <source>Enter the password of your login: it is kept in the system keyring.</source>
        <translation>Informe a senha do seu login: ela fica guardada no chaveiro do sistema.</translation>
    </message>
    <message>
        <source>There is no profile named “{name}”.</source>
        <translation>Não há perfil chamado “{name}”.</translation>
    </message>
    <message>
        <source>The profile file {path} cannot be read: {reason}.</source>
        <translation>O arquivo de perfil {path} não pode ser lido: {reason}.</translation>
    </message>
    <message>
        <source>The profile file {path} is damaged (not valid JSON: {reason}).</source>
        <translation>O arquivo de perfil {path} está danificado (JSON inválido: {reason}).</translation>
    </message>
    <message>
        <source>The profile file {path} does not hold a profile.</source>
        <translation>O arquivo de perfil {path} não contém um perfil.</translation>
    </message>
    <message>
        <source>The profile file {path} is not a valid profile: {reason}.</source>
        <translation>O arquivo de perfil {path} não é um perfil válido: {reason}.</translation>
    </message>
    <message>
        <source>The profile file {path} is named “{name}” inside; rename the file back or recreate the profile.</source>
        <translation>O arquivo de perfil {path} se chama “{name}” por dentro; renomeie o arquivo de volta ou recrie o perfil.</translation>
    </message>
    <message>
        <source>The sandbox bank&apos;s file {path} does not exist.</source>
        <translation>O arquivo {path} do banco sandbox não existe.</translation>
    </message>
    <message>
        <source>The sandbox bank&apos;s file {path} cannot be read: {reason}.</source>
        <translation>O arquivo {path} do banco sandbox não pode ser lido: {reason}.</translation>
    </message>
    <message>
        <source>The sandbox bank&apos;s file {path} is not what the sandbox writes.</source>
        <translation>O arquivo {path} do banco sandbox não é o que o sandbox grava.</translation>
    </message>
    <message>
        <source>The sandbox bank&apos;s file {path} lacks {missing}.</source>
        <translation>Falta {missing} no arquivo {path} do banco sandbox.</translation>
    </message>
    <message>
        <source>The sandbox bank&apos;s file {path} is not in the expected form.</source>
        <translation>O arquivo {path} do banco sandbox não está na forma esperada.</translation>
    </message>
    <message>
        <source>Your IT department&apos;s settings in {source} cannot be read ({reason}).</source>
        <translation>As configurações do seu departamento de TI em {source} não podem ser lidas ({reason}).</translation>
    </message>
    <message>
        <source>Your IT department&apos;s settings in {source} have too many entries under {key}.</source>
        <translation>As configurações do seu departamento de TI em {source} têm entradas demais em {key}.</translation>
    </message>
    <message>
        <source>The settings file {source} is too large (at most {max} bytes).</source>
        <translation>O arquivo de configurações {source} é grande demais (no máximo {max} bytes).</translation>
    </message>
    <message>
        <source>The settings file {source} is not text in a known encoding.</source>
        <translation>O arquivo de configurações {source} não é texto numa codificação conhecida.</translation>
    </message>
    <message>
        <source>The settings file {source} cannot be read near line {line} (a value outside a [section], or a name given twice).</source>
        <translation>O arquivo de configurações {source} não pode ser lido perto da linha {line} (um valor fora de uma [seção], ou um nome repetido).</translation>
    </message>
    <message>
        <source>The settings file {source} has the section [{section}] twice.</source>
        <translation>O arquivo de configurações {source} tem a seção [{section}] duas vezes.</translation>
    </message>
    <message>
        <source>{field} in {source} looks like a secret: secrets are never set by policy (each person types them; they are kept in the system keyring).</source>
        <translation>{field} em {source} parece um segredo: segredos nunca são definidos por política (cada pessoa os digita; eles ficam no chaveiro do sistema).</translation>
    </message>
    <message>
        <source>{field} in {source} has the wrong type: it should be {expected}.</source>
        <translation>{field} em {source} tem o tipo errado: deveria ser {expected}.</translation>
    </message>
    <message>
        <source>{field} in {source} is too long (at most {max} characters) or has control characters.</source>
        <translation>{field} em {source} é longo demais (no máximo {max} caracteres) ou tem caracteres de controle.</translation>
    </message>
    <message>
        <source>{field} in {source} cannot contain spaces.</source>
        <translation>{field} em {source} não pode ter espaços.</translation>
    </message>
    <message>
        <source>{field} in {source} must be 1 (yes) or 0 (no).</source>
        <translation>{field} em {source} deve ser 1 (sim) ou 0 (não).</translation>
    </message>
    <message>
        <source>{field} in {source} must be a number.</source>
        <translation>{field} em {source} deve ser um número.</translation>
    </message>
    <message>
        <source>{field} in {source} is {port}: a port is between 1 and 65535.</source>
        <translation>{field} em {source} é {port}: uma porta fica entre 1 e 65535.</translation>
    </message>
    <message>
        <source>{field} in {source} is “{value}”; it must be one of: {allowed}.</source>
        <translation>{field} em {source} é “{value}”; deve ser um destes: {allowed}.</translation>
    </message>
    <message>
        <source>{field} in {source} must be a full path (with its drive): “{path}”.</source>
        <translation>{field} em {source} deve ser um caminho completo (com a unidade): “{path}”.</translation>
    </message>
    <message>
        <source>{field} in {source} is a network folder ({path}): the ledger must be kept on this computer (to share it, use the team database).</source>
        <translation>{field} em {source} é uma pasta de rede ({path}): o livro-razão deve ficar neste computador (para compartilhá-lo, use o banco de dados da equipe).</translation>
    </message>
    <message>
        <source>{field} in {source} must be an https:// address: “{url}”.</source>
        <translation>{field} em {source} deve ser um endereço https://: “{url}”.</translation>
    </message>
    <message>
        <source>{field} in {source} is not a bank address (https://host/path, without a user name, query or fragment): “{url}”.</source>
        <translation>{field} em {source} não é um endereço de banco (https://servidor/caminho, sem nome de usuário, consulta ou fragmento): “{url}”.</translation>
    </message>
    <message>
        <source>{field} in {source}: a Pix key has at most 77 characters.</source>
        <translation>{field} em {source}: uma chave Pix tem no máximo 77 caracteres.</translation>
    </message>
    <message>
        <source>The team database in {source} lacks {missing}.</source>
        <translation>Falta {missing} ao banco de dados da equipe em {source}.</translation>
    </message>
    <message>
        <source>The preset profile “{name}” in {source} lacks {missing}.</source>
        <translation>Falta {missing} ao perfil predefinido “{name}” em {source}.</translation>
    </message>
    <message>
        <source>{source} presets two profiles named “{name}”.</source>
        <translation>{source} predefine dois perfis chamados “{name}”.</translation>
    </message>
    <message>
        <source>The preset profile “{name}” in {source} cannot be used: {rule}</source>
        <translation>O perfil predefinido “{name}” em {source} não pode ser usado: {rule}</translation>
    </message>
    <message>
        <source>The preset profile “{name}” in {source} cannot be used ({reason}).</source>
        <translation>O perfil predefinido “{name}” em {source} não pode ser usado ({reason}).</translation>
    </message>
    <message>
        <source>{source} locks {setting} but does not set it: set its value too, or remove the lock.</source>
        <translation>{source} trava {setting} mas não o define: defina também o valor, ou retire a trava.</translation>
    </message>
    <message>
        <source>Your IT department has turned the sandbox bank off on this computer: the profile “{name}” cannot be used.</source>
        <translation>O seu departamento de TI desativou o banco sandbox neste computador: o perfil “{name}” não pode ser usado.</translation>
    </message>
    <message>
        <source>The profile “{name}” is set by your IT department: it cannot be changed or deleted here.</source>
        <translation>O perfil “{name}” é definido pelo seu departamento de TI: não pode ser alterado nem excluído aqui.</translation>
    </message>
    <message>
        <source>Your IT department provides the profiles on this computer: “{name}” cannot be saved.</source>
        <translation>O seu departamento de TI fornece os perfis deste computador: “{name}” não pode ser salvo.</translation>
    </message>
    <message>
        <source>The CA file {path} does not exist.</source>
        <translation>O arquivo de CA {path} não existe.</translation>
    </message>
    <message>
        <source>The CA file {path} cannot be read: {reason}.</source>
        <translation>O arquivo de CA {path} não pode ser lido: {reason}.</translation>
    </message>
    <message>
        <source>The CA file {path} holds a block that is not a plain certificate ({blocks}): it is not used.</source>
        <translation>O arquivo de CA {path} contém um bloco que não é um certificado simples ({blocks}): ele não é usado.</translation>
    </message>
    <message>
        <source>The CA file {path} holds no PEM certificate.</source>
        <translation>O arquivo de CA {path} não contém nenhum certificado PEM.</translation>
    </message>
    <message>
        <source>This payment has no bank identifier yet: its receipt cannot be asked for.</source>
        <translation>Este pagamento ainda não tem identificador do banco: o comprovante dele não pode ser pedido.</translation>
    </message>
    <message>
        <source>The bank&apos;s receipt is not a PDF file.</source>
        <translation>O comprovante do banco não é um arquivo PDF.</translation>
    </message>
    <message>
        <source>The stored copy of receipt {receipt} is damaged (it is not what was saved): ask the bank for the receipt again.</source>
        <translation>A cópia guardada do comprovante {receipt} está danificada (não é o que foi salvo): peça o comprovante ao banco de novo.</translation>
    </message>
    <message>
        <source>The stored copy of receipt {receipt} is missing from the ledger: ask the bank for the receipt again.</source>
        <translation>A cópia guardada do comprovante {receipt} não está mais no livro-razão: peça o comprovante ao banco de novo.</translation>
    </message>
    <message>
        <source>The charge is for {amount}; a different amount cannot be paid.</source>
        <translation>A cobrança é de {amount}; não é possível pagar outro valor.</translation>
    </message>
    <message>
        <source>The charge behind this code is not validly signed by its bank: do not pay it.</source>
        <translation>A cobrança por trás deste código não está assinada validamente pelo banco: não a pague.</translation>
    </message>
    <message>
        <source>“{typed}” is not a date: write the pay date as dd/mm/yyyy (for example 05/12/2026), or leave it empty.</source>
        <translation>“{typed}” não é uma data: escreva a data de pagamento como dd/mm/aaaa (por exemplo 05/12/2026) ou deixe-a vazia.</translation>
    </message>
    <message>
        <source>“{typed}” is not a day of the calendar: check the day and the month.</source>
        <translation>“{typed}” não é um dia do calendário: confira o dia e o mês.</translation>
    </message>
    <message>
        <source>This payment is not scheduled: approve, reject or withdraw it where it waits.</source>
        <translation>Este pagamento não está agendado: aprove, rejeite ou retire-o onde ele aguarda.</translation>
    </message>
    <message>
        <source>A payment cannot be moved to {day}: that day has passed.</source>
        <translation>Um pagamento não pode ser movido para {day}: esse dia já passou.</translation>
    </message>
    <message>
        <source>{day} is not a business day: choose a day the banks settle on.</source>
        <translation>{day} não é dia útil: escolha um dia em que os bancos liquidam.</translation>
    </message>
    <message>
        <source>Say why the payment is cancelled: the audit keeps the reason.</source>
        <translation>Diga por que o pagamento é cancelado: a auditoria guarda o motivo.</translation>
    </message>
    <message>
        <source>This is a planned occurrence of a series, not journaled yet: change it through its series (Edit series or End series).</source>
        <translation>Esta é uma ocorrência prevista de uma série, ainda não registrada: altere-a pela série (Editar série ou Encerrar série).</translation>
    </message>
    <message>
        <source>The warning threshold is an amount of zero or more.</source>
        <translation>O limite de alerta é um valor de zero ou mais.</translation>
    </message>
    <message>
        <source>This slip was already paid on {at}: {amount}. A slip is paid once; its receipt is in the list of slip payments.</source>
        <translation>Este boleto já foi pago em {at}: {amount}. Um boleto é pago uma vez só; o comprovante está na lista de pagamentos de boletos.</translation>
    </message>
    <message>
        <source>Enter a value greater than zero.</source>
        <translation>Informe um valor maior que zero.</translation>
    </message>
    <message>
        <source>The percentage must be below 100%.</source>
        <translation>O percentual deve ser menor que 100%.</translation>
    </message>
    <message>
        <source>Must be less than the amount of the charge.</source>
        <translation>Deve ser menor que o valor da cobrança.</translation>
    </message>
    <message>
        <source>Must not be after the due date.</source>
        <translation>Não pode ser posterior ao vencimento.</translation>
    </message>
    <message>
        <source>Each discount needs its own date.</source>
        <translation>Cada desconto precisa de uma data própria.</translation>
    </message>
    <message>
        <source>Give at least one date and value.</source>
        <translation>Informe pelo menos uma data e um valor.</translation>
    </message>
    <message>
        <source>At most {max} discount dates.</source>
        <translation>No máximo {max} datas de desconto.</translation>
    </message>
    <message>
        <source>A txid has 26 to 35 letters or digits.</source>
        <translation>Um txid tem de 26 a 35 letras ou dígitos.</translation>
    </message>
    <message>
        <source>Must be a whole number from {min} to {max}.</source>
        <translation>Deve ser um número inteiro de {min} a {max}.</translation>
    </message>
    <message>
        <source>A time needs its time zone.</source>
        <translation>Um horário precisa do seu fuso horário.</translation>
    </message>
    <message>
        <source>The end of the range is before its start.</source>
        <translation>O fim do período é anterior ao início.</translation>
    </message>
    <message>
        <source>An immediate charge has no debtor address.</source>
        <translation>Uma cobrança imediata não tem endereço do devedor.</translation>
    </message>
    <message>
        <source>This is not an e-mail address.</source>
        <translation>Isto não é um endereço de e-mail.</translation>
    </message>
    <message>
        <source>A state (UF) is 2 letters, such as SP.</source>
        <translation>Uma UF tem 2 letras, como SP.</translation>
    </message>
    <message>
        <source>A CEP has 8 digits.</source>
        <translation>Um CEP tem 8 dígitos.</translation>
    </message>
    <message>
        <source>Unknown status; one of {known}.</source>
        <translation>Situação desconhecida; uma de {known}.</translation>
    </message>
    <message>
        <source>At most {max} items.</source>
        <translation>No máximo {max} itens.</translation>
    </message>
    <message>
        <source>A charge with a due date needs its debtor.</source>
        <translation>Uma cobrança com vencimento precisa do devedor.</translation>
    </message>
    <message>
        <source>Nothing to change: give a new amount, text or debtor.</source>
        <translation>Nada a alterar: informe um novo valor, texto ou devedor.</translation>
    </message>
    <message>
        <source>A due date is a calendar date.</source>
        <translation>Um vencimento é uma data do calendário.</translation>
    </message>
    <message>
        <source>The due date {due} has passed.</source>
        <translation>O vencimento {due} já passou.</translation>
    </message>
    <message>
        <source>A location is for a charge (immediate or with a due date).</source>
        <translation>Uma location é de uma cobrança (imediata ou com vencimento).</translation>
    </message>
    <message>
        <source>This is not an end-to-end id (E + 31 characters).</source>
        <translation>Isto não é um identificador fim a fim (E + 31 caracteres).</translation>
    </message>
    <message>
        <source>A refund id has 1 to 35 letters or digits.</source>
        <translation>Um identificador de devolução tem de 1 a 35 letras ou dígitos.</translation>
    </message>
    <message>
        <source>The charge has no QR Code payload (Pix Copia e Cola).</source>
        <translation>A cobrança não tem o conteúdo do QR Code (Pix Copia e Cola).</translation>
    </message>
    <message>
        <source>The charge&apos;s QR Code payload is not valid: {why}</source>
        <translation>O conteúdo do QR Code da cobrança não é válido: {why}</translation>
    </message>
    <message>
        <source>Write the due date as DD/MM/YYYY or YYYY-MM-DD.</source>
        <translation>Escreva o vencimento como DD/MM/AAAA ou AAAA-MM-DD.</translation>
    </message>
    <message>
        <source>{text} is not a real date.</source>
        <translation>{text} não é uma data válida.</translation>
    </message>
    <message>
        <source>The debtor&apos;s name is missing.</source>
        <translation>Falta o nome do devedor.</translation>
    </message>
    <message>
        <source>The name has more than {max} characters.</source>
        <translation>O nome tem mais de {max} caracteres.</translation>
    </message>
    <message>
        <source>The due date is missing.</source>
        <translation>Falta o vencimento.</translation>
    </message>
    <message>
        <source>The description has more than {max} characters.</source>
        <translation>A descrição tem mais de {max} caracteres.</translation>
    </message>
    <message>
        <source>Unknown column “{column}”; the columns are {columns}</source>
        <translation>Coluna “{column}” desconhecida; as colunas são {columns}</translation>
    </message>
    <message>
        <source>This column appears twice.</source>
        <translation>Esta coluna aparece duas vezes.</translation>
    </message>
    <message>
        <source>The header lacks this column.</source>
        <translation>Falta esta coluna no cabeçalho.</translation>
    </message>
    <message>
        <source>The file has no charges.</source>
        <translation>O arquivo não tem cobranças.</translation>
    </message>
    <message>
        <source>A batch has at most {max} charges.</source>
        <translation>Um lote tem no máximo {max} cobranças.</translation>
    </message>
    <message>
        <source>This column is missing.</source>
        <translation>Falta esta coluna.</translation>
    </message>
    <message>
        <source>The row has {found} columns, at most {max} are expected.</source>
        <translation>A linha tem {found} colunas; são esperadas no máximo {max}.</translation>
    </message>
    <message>
        <source>The row has {found} columns, at most {max} are expected (with &apos;,&apos; as separator, quote amounts written with a comma: &quot;1.234,56&quot;).</source>
        <translation>A linha tem {found} colunas; são esperadas no máximo {max} (com &apos;,&apos; como separador, ponha entre aspas os valores escritos com vírgula: &quot;1.234,56&quot;).</translation>
    </message>
    <message>
        <source>The amount seems cut in two by the &apos;,&apos; separator: quote it (&quot;1.234,56&quot;) or write it with a decimal point (1234.56).</source>
        <translation>O valor parece cortado em dois pelo separador &apos;,&apos;: ponha-o entre aspas (&quot;1.234,56&quot;) ou escreva-o com ponto decimal (1234.56).</translation>
    </message>
    <message>
        <source>A batch id has 1 to 64 letters, digits, &apos;-&apos; or &apos;_&apos;.</source>
        <translation>Um identificador de lote tem de 1 a 64 letras, dígitos, &apos;-&apos; ou &apos;_&apos;.</translation>
    </message>
    <message>
        <source>{count} line(s) of the file have errors; the first, on line {line}: {first}</source>
        <translation>{count} linha(s) do arquivo têm erros; o primeiro, na linha {line}: {first}</translation>
    </message>
    <message>
        <source>A batch needs at least one charge.</source>
        <translation>Um lote precisa de pelo menos uma cobrança.</translation>
    </message>
    <message>
        <source>Line {line}: the due date {due} has passed.</source>
        <translation>Linha {line}: o vencimento {due} já passou.</translation>
    </message>
    <message>
        <source>Give at least one member to change.</source>
        <translation>Informe pelo menos um membro a alterar.</translation>
    </message>
    <message>
        <source>Nothing to change for this member.</source>
        <translation>Nada a alterar neste membro.</translation>
    </message>
    <message>
        <source>This txid is already on line {line}.</source>
        <translation>Este txid já está na linha {line}.</translation>
    </message>
    <message>
        <source>{count} line(s) of the file have errors.</source>
        <translation>{count} linha(s) do arquivo têm erros.</translation>
    </message>
    <message>
        <source>One of {known}.</source>
        <translation>Um de {known}.</translation>
    </message>
    <message>
        <source>This is not a recurrence id (idRec).</source>
        <translation>Isto não é um identificador de recorrência (idRec).</translation>
    </message>
    <message>
        <source>A calendar date is expected.</source>
        <translation>Espera-se uma data do calendário.</translation>
    </message>
    <message>
        <source>A location id is a positive whole number.</source>
        <translation>O identificador de uma location é um número inteiro positivo.</translation>
    </message>
    <message>
        <source>A branch has up to 4 digits.</source>
        <translation>Uma agência tem até 4 dígitos.</translation>
    </message>
    <message>
        <source>Unknown periodicity {value}.</source>
        <translation>Periodicidade desconhecida: {value}.</translation>
    </message>
    <message>
        <source>Yes or no is expected.</source>
        <translation>Espera-se sim ou não.</translation>
    </message>
    <message>
        <source>The account credited is required.</source>
        <translation>A conta a creditar é obrigatória.</translation>
    </message>
    <message>
        <source>A debtor address is expected.</source>
        <translation>Espera-se um endereço do devedor.</translation>
    </message>
    <message>
        <source>The due date {due} is too close: a recurring charge is created at least 2 business days before its due date, so the earliest is {earliest}.</source>
        <translation>O vencimento {due} está muito próximo: uma cobrança recorrente é criada pelo menos 2 dias úteis antes do vencimento, então o mais cedo é {earliest}.</translation>
    </message>
    <message>
        <source>Only an authorised recurrence can be charged.</source>
        <translation>Só uma recorrência autorizada pode ser cobrada.</translation>
    </message>
    <message>
        <source>The due date is outside the recurrence&apos;s validity ({start} to {end}).</source>
        <translation>O vencimento está fora da vigência da recorrência ({start} a {end}).</translation>
    </message>
    <message>
        <source>The due date is before the recurrence&apos;s first date ({start}).</source>
        <translation>O vencimento é anterior à data inicial da recorrência ({start}).</translation>
    </message>
    <message>
        <source>Type the amount of the charge.</source>
        <translation>Digite o valor da cobrança.</translation>
    </message>
    <message>
        <source>The amount is the recurrence&apos;s fixed {fixed}.</source>
        <translation>O valor é o fixo da recorrência, {fixed}.</translation>
    </message>
    <message>
        <source>The amount is below the recurrence&apos;s minimum {minimum}.</source>
        <translation>O valor está abaixo do mínimo da recorrência, {minimum}.</translation>
    </message>
    <message>
        <source>The recurrence already has an active charge in this cycle ({cycle}): {txid}, due {due}. Cancel it first or choose another cycle.</source>
        <translation>A recorrência já tem uma cobrança ativa neste ciclo ({cycle}): {txid}, com vencimento em {due}. Cancele-a antes ou escolha outro ciclo.</translation>
    </message>
    <message>
        <source>The charge can no longer be cancelled.</source>
        <translation>A cobrança não pode mais ser cancelada.</translation>
    </message>
    <message>
        <source>A recurring charge cannot be cancelled from the date of its first settlement attempt ({first}) on.</source>
        <translation>Uma cobrança recorrente não pode ser cancelada a partir da data da sua primeira tentativa de liquidação ({first}).</translation>
    </message>
    <message>
        <source>The recurrence&apos;s retry policy does not allow retries.</source>
        <translation>A política de retentativa da recorrência não permite retentativas.</translation>
    </message>
    <message>
        <source>The charge is closed: no retry.</source>
        <translation>A cobrança está encerrada: sem retentativa.</translation>
    </message>
    <message>
        <source>An attempt is still scheduled: wait for its result.</source>
        <translation>Ainda há uma tentativa agendada: aguarde o resultado.</translation>
    </message>
    <message>
        <source>A retry only follows a failed attempt.</source>
        <translation>Uma retentativa só vem depois de uma tentativa que falhou.</translation>
    </message>
    <message>
        <source>The charge already had the {max} retries allowed.</source>
        <translation>A cobrança já teve as {max} retentativas permitidas.</translation>
    </message>
    <message>
        <source>A retry is scheduled on a future date.</source>
        <translation>Uma retentativa é agendada para uma data futura.</translation>
    </message>
    <message>
        <source>A retry must fall within {days} days after the due date (until {until}).</source>
        <translation>Uma retentativa deve cair em até {days} dias após o vencimento (até {until}).</translation>
    </message>
    <message>
        <source>The charge already has an attempt on that date.</source>
        <translation>A cobrança já tem uma tentativa nessa data.</translation>
    </message>
    <message>
        <source>The debtor is required.</source>
        <translation>O devedor é obrigatório.</translation>
    </message>
    <message>
        <source>Give a fixed amount or a minimum amount, not both.</source>
        <translation>Informe um valor fixo ou um valor mínimo, não os dois.</translation>
    </message>
    <message>
        <source>The end date is before the first date.</source>
        <translation>A data final é anterior à data inicial.</translation>
    </message>
    <message>
        <source>The first date {first} has passed.</source>
        <translation>A data inicial {first} já passou.</translation>
    </message>
    <message>
        <source>Nothing to revise.</source>
        <translation>Nada a alterar.</translation>
    </message>
    <message>
        <source>A request id (idSolicRec) has 29 characters, SC first.</source>
        <translation>Um identificador de solicitação (idSolicRec) tem 29 caracteres, começando por SC.</translation>
    </message>
    <message>
        <source>The payer&apos;s account is required.</source>
        <translation>A conta do pagador é obrigatória.</translation>
    </message>
    <message>
        <source>An ISPB is 8 digits or capital letters.</source>
        <translation>Um ISPB tem 8 dígitos ou letras maiúsculas.</translation>
    </message>
    <message>
        <source>The request would expire in the past.</source>
        <translation>A solicitação expiraria no passado.</translation>
    </message>
    <message>
        <source>The amount typed is not the amount of this payment.</source>
        <translation>O valor digitado não é o valor deste pagamento.</translation>
    </message>
    <message>
        <source>Say why it is rejected.</source>
        <translation>Diga por que ele é rejeitado.</translation>
    </message>
    <message>
        <source>Say why it is withdrawn.</source>
        <translation>Diga por que ele é retirado.</translation>
    </message>
    <message>
        <source>Say why each rejected row is rejected.</source>
        <translation>Diga por que cada linha rejeitada é rejeitada.</translation>
    </message>
    <message>
        <source>The amount of this payment cannot be changed here: withdraw it.</source>
        <translation>O valor deste pagamento não pode ser alterado aqui: retire-o.</translation>
    </message>
    <message>
        <source>This payment is not waiting for approval any more.</source>
        <translation>Este pagamento não aguarda mais aprovação.</translation>
    </message>
    <message>
        <source>You prepared this payment: another person approves it (a maker never approves their own payment).</source>
        <translation>Você preparou este pagamento: outra pessoa o aprova (quem prepara nunca aprova o próprio pagamento).</translation>
    </message>
    <message>
        <source>You prepared this payment: withdraw it instead of rejecting it.</source>
        <translation>Você preparou este pagamento: retire-o em vez de rejeitá-lo.</translation>
    </message>
    <message>
        <source>Only the person who prepared this payment withdraws or changes it.</source>
        <translation>Só quem preparou este pagamento pode retirá-lo ou alterá-lo.</translation>
    </message>
    <message>
        <source>No row of this batch waits for approval any more.</source>
        <translation>Nenhuma linha deste lote aguarda mais aprovação.</translation>
    </message>
    <message>
        <source>You prepared this batch: another person approves it.</source>
        <translation>Você preparou este lote: outra pessoa o aprova.</translation>
    </message>
    <message>
        <source>Your role does not approve payments.</source>
        <translation>O seu papel não aprova pagamentos.</translation>
    </message>
    <message>
        <source>What this desktop shows does not match the fingerprint the team database keeps for this payment: do not approve it; ask its maker to prepare it again.</source>
        <translation>O que este computador mostra não confere com a impressão digital que o banco de dados da equipe guarda deste pagamento: não o aprove; peça a quem o preparou que o prepare de novo.</translation>
    </message>
    <message>
        <source>You approved it already; it waits for another approver.</source>
        <translation>Você já o aprovou; ele aguarda outro aprovador.</translation>
    </message>
    <message>
        <source>Every approval it needs is given; it is being released.</source>
        <translation>Todas as aprovações necessárias foram dadas; ele está sendo liberado.</translation>
    </message>
    <message>
        <source>Payment #{entry} of this batch does not match what the team database keeps: review the batch again.</source>
        <translation>O pagamento nº {entry} deste lote não confere com o que o banco de dados da equipe guarda: revise o lote de novo.</translation>
    </message>
    <message>
        <source>Type your team database password to approve.</source>
        <translation>Digite a sua senha do banco de dados da equipe para aprovar.</translation>
    </message>
    <message>
        <source>That is not your team database password.</source>
        <translation>Esta não é a sua senha do banco de dados da equipe.</translation>
    </message>
    <message>
        <source>The team database did not allow this change; nothing was changed.</source>
        <translation>O banco de dados da equipe não permitiu esta alteração; nada foi alterado.</translation>
    </message>
    <message>
        <source>Your login may not make this change in the team database; ask its administrator for the right role.</source>
        <translation>Seu login não pode fazer esta alteração no banco de dados da equipe; peça ao administrador dele o papel certo.</translation>
    </message>
    <message>
        <source>The team database does not allow your login this change.</source>
        <translation>O banco de dados da equipe não permite esta alteração ao seu login.</translation>
    </message>
    <message>
        <source>Your login ({login}) does not prepare payments in the team: only makers prepare, change or withdraw them.</source>
        <translation>Seu login ({login}) não prepara pagamentos na equipe: só quem prepara pagamentos os prepara, altera ou retira.</translation>
    </message>
    <message>
        <source>Your login ({login}) does not approve payments in the team: only approvers approve or reject them.</source>
        <translation>Seu login ({login}) não aprova pagamentos na equipe: só os aprovadores os aprovam ou rejeitam.</translation>
    </message>
    <message>
        <source>Your login ({login}) only reads the team&apos;s payments: sending them, resolving them and keeping their receipts take a maker or an approver.</source>
        <translation>Seu login ({login}) só consulta os pagamentos da equipe: enviá-los, resolvê-los e guardar seus comprovantes cabe a quem prepara ou aprova pagamentos.</translation>
    </message>
    <message>
        <source>Only {maker}, who prepared this payment, may change or withdraw it.</source>
        <translation>Só {maker}, que preparou este pagamento, pode alterá-lo ou retirá-lo.</translation>
    </message>
    <message>
        <source>You prepared this payment: another person must approve it.</source>
        <translation>Você preparou este pagamento: outra pessoa precisa aprová-lo.</translation>
    </message>
    <message>
        <source>The amount must be more than zero, in reais and centavos, at most {maximum}.</source>
        <translation>O valor deve ser maior que zero, em reais e centavos, no máximo {maximum}.</translation>
    </message>
    <message>
        <source>This payment is not in the team&apos;s journal.</source>
        <translation>Este pagamento não está no registro de operações da equipe.</translation>
    </message>
    <message>
        <source>This payment is not waiting for approval any more ({state}).</source>
        <translation>Este pagamento não está mais aguardando aprovação ({state}).</translation>
    </message>
    <message>
        <source>This payment changed since you reviewed it (its amount or description): review it again.</source>
        <translation>Este pagamento mudou desde que você o revisou (o valor ou a descrição): revise-o de novo.</translation>
    </message>
    <message>
        <source>{amount} is over your approval limit ({payment_limit} per payment, {daily_limit} per day, {approved_today} approved today): it takes the approval of {others}.</source>
        <translation>{amount} está acima do seu limite de aprovação ({payment_limit} por pagamento, {daily_limit} por dia, {approved_today} aprovados hoje): é preciso a aprovação de {others}.</translation>
    </message>
    <message>
        <source>Say why it is rejected or withdrawn.</source>
        <translation>Diga por que ele é rejeitado ou retirado.</translation>
    </message>
    <message>
        <source>This payment has {given} of the {needed} approvals it needs: it is not sent.</source>
        <translation>Este pagamento tem {given} das {needed} aprovações de que precisa: não é enviado.</translation>
    </message>
    <message>
        <source>Only {maker}, who prepared this payment, sends it.</source>
        <translation>Só {maker}, que preparou este pagamento, o envia.</translation>
    </message>
    <message>
        <source>No payment of this batch is waiting for approval any more.</source>
        <translation>Nenhum pagamento deste lote está mais aguardando aprovação.</translation>
    </message>
    <message>
        <source>This batch changed since you reviewed it: review it again.</source>
        <translation>Este lote mudou desde que você o revisou: revise-o de novo.</translation>
    </message>
    <message>
        <source>Another desktop is sending or checking this payment, or it may not be sent yet: nothing was recorded here.</source>
        <translation>Outro computador está enviando ou conferindo este pagamento, ou ele ainda não pode ser enviado: nada foi registrado aqui.</translation>
    </message>
    <message>
        <source>This payment moved on meanwhile: this step no longer applies to it.</source>
        <translation>Este pagamento avançou nesse meio-tempo: esta etapa não se aplica mais a ele.</translation>
    </message>
    <message>
        <source>A refusal is recorded with its reason.</source>
        <translation>Uma recusa é registrada com o seu motivo.</translation>
    </message>
    <message>
        <source>This changed meanwhile in the team database: look at it again.</source>
        <translation>Isto mudou nesse meio-tempo no banco de dados da equipe: veja de novo.</translation>
    </message>
    <message>
        <source>The team database did not accept these values.</source>
        <translation>O banco de dados da equipe não aceitou estes valores.</translation>
    </message>
    <message>
        <source>This receipt cannot be kept with this payment.</source>
        <translation>Este comprovante não pode ser guardado com este pagamento.</translation>
    </message>
    <message>
        <source>The bank did not complete this payment: it has no receipt to keep.</source>
        <translation>O banco não concluiu este pagamento: não há comprovante a guardar.</translation>
    </message>
    <message>
        <source>This receipt is not the one of this payment, or not a PDF file.</source>
        <translation>Este comprovante não é o deste pagamento, ou não é um arquivo PDF.</translation>
    </message>
    <message>
        <source>A receipt is kept with the payment it belongs to, and this one belongs to no payment of the team&apos;s journal.</source>
        <translation>Um comprovante é guardado com o pagamento a que pertence, e este não pertence a nenhum pagamento do registro de operações da equipe.</translation>
    </message>
    <message>
        <source>The ledger cannot be opened; the details are in the log.</source>
        <translation>Não foi possível abrir o livro-razão; os detalhes estão no registro (log).</translation>
    </message>
    <message>
        <source>The ledger cannot be reached or written now; nothing was changed.</source>
        <translation>O livro-razão não pode ser acessado nem gravado agora; nada foi alterado.</translation>
    </message>
    <message>
        <source>“{file}” was written by a newer version of the app (schema {schema}; this version reads up to {supported}). Update the app; the file was not changed.</source>
        <translation>“{file}” foi gravado por uma versão mais nova do aplicativo (esquema {schema}; esta versão lê até o {supported}). Atualize o aplicativo; o arquivo não foi alterado.</translation>
    </message>
    <message>
        <source>The team database has schema {schema}; this version of the app reads up to {supported}. Update the app; nothing was changed.</source>
        <translation>O banco de dados da equipe tem o esquema {schema}; esta versão do aplicativo lê até o {supported}. Atualize o aplicativo; nada foi alterado.</translation>
    </message>
    <message>
        <source>The team database has schema {schema}; this app needs {needed}. Its administrator runs “treasury-admin migrate”.</source>
        <translation>O banco de dados da equipe tem o esquema {schema}; este aplicativo precisa do {needed}. O administrador dele executa “treasury-admin migrate”.</translation>
    </message>
    <message>
        <source>{where} is not a treasury team database yet: its administrator runs “treasury-admin init”.</source>
        <translation>{where} ainda não é um banco de dados de tesouraria da equipe: o administrador dele executa “treasury-admin init”.</translation>
    </message>
    <message>
        <source>The team database {where} refused the password: type it again.</source>
        <translation>O banco de dados da equipe {where} recusou a senha: digite-a de novo.</translation>
    </message>
    <message>
        <source>The team database has no login {user}: ask the administrator to add it (“treasury-admin add-user”).</source>
        <translation>O banco de dados da equipe não tem o login {user}: peça ao administrador que o adicione (“treasury-admin add-user”).</translation>
    </message>
    <message>
        <source>The login {user} is not a maker, approver or viewer of the treasury: ask the administrator (“treasury-admin add-user”).</source>
        <translation>O login {user} não é preparador, aprovador nem leitor da tesouraria: fale com o administrador (“treasury-admin add-user”).</translation>
    </message>
    <message>
        <source>The server has no database {dbname}: check the profile&apos;s team database settings.</source>
        <translation>O servidor não tem o banco de dados {dbname}: verifique as configurações do banco de dados da equipe no perfil.</translation>
    </message>
    <message>
        <source>The secure connection to the team database {where} failed: check its certificate settings with the administrator.</source>
        <translation>A conexão segura com o banco de dados da equipe {where} falhou: verifique as configurações de certificado com o administrador.</translation>
    </message>
    <message>
        <source>The team database {where} does not let this login in: ask the administrator.</source>
        <translation>O banco de dados da equipe {where} não permite a entrada deste login: fale com o administrador.</translation>
    </message>
    <message>
        <source>The team database at {host}:{port} refused the connection: is its server running, and are the address and the port right?</source>
        <translation>O banco de dados da equipe em {host}:{port} recusou a conexão: o servidor está em execução, e o endereço e a porta estão corretos?</translation>
    </message>
    <message>
        <source>The team database at {host}:{port} did not answer in time (the network, a firewall, or a busy server).</source>
        <translation>O banco de dados da equipe em {host}:{port} não respondeu a tempo (a rede, um firewall ou um servidor ocupado).</translation>
    </message>
    <message>
        <source>The team database&apos;s server {host} cannot be found: check its address, the network or the VPN.</source>
        <translation>O servidor do banco de dados da equipe {host} não foi encontrado: verifique o endereço, a rede ou a VPN.</translation>
    </message>
    <message>
        <source>The team database at {host}:{port} has no free connection left: ask the administrator.</source>
        <translation>O banco de dados da equipe em {host}:{port} não tem mais conexões livres: fale com o administrador.</translation>
    </message>
    <message>
        <source>The team database at {host}:{port} is starting up, shutting down or recovering.</source>
        <translation>O banco de dados da equipe em {host}:{port} está iniciando, sendo desligado ou se recuperando.</translation>
    </message>
    <message>
        <source>The team database at {host}:{port} accepts no changes right now (a standby server, after a failover?).</source>
        <translation>O banco de dados da equipe em {host}:{port} não aceita alterações agora (um servidor de reserva, depois de uma troca de servidor?).</translation>
    </message>
    <message>
        <source>The connection to the team database at {host}:{port} was lost.</source>
        <translation>A conexão com o banco de dados da equipe em {host}:{port} foi perdida.</translation>
    </message>
    <message>
        <source>The team database at {host}:{port} cannot be reached.</source>
        <translation>O banco de dados da equipe em {host}:{port} não está acessível.</translation>
    </message>
    <message>
        <source>“{file}” could not be opened as an image. Choose a PNG or JPEG picture of the QR Code.</source>
        <translation>Não foi possível abrir “{file}” como imagem. Escolha uma imagem PNG ou JPEG do QR Code.</translation>
    </message>
    <message>
        <source>“{file}” could not be prepared for reading (an unusual image format).</source>
        <translation>Não foi possível preparar “{file}” para leitura (um formato de imagem incomum).</translation>
    </message>
    <message>
        <source>No QR Code was found in “{file}”. Use a sharp, well-lit picture showing the whole code.</source>
        <translation>Nenhum QR Code foi encontrado em “{file}”. Use uma imagem nítida e bem iluminada que mostre o código inteiro.</translation>
    </message>
    <message>
        <source>The bank cannot be reached to confirm that it does not have this payment; nothing was cancelled. Try again when the bank answers.</source>
        <translation>Não foi possível falar com o banco para confirmar que ele não tem este pagamento; nada foi cancelado. Tente de novo quando o banco responder.</translation>
    </message>
    <message>
        <source>The statement ends ({end}) before it starts ({start}).</source>
        <translation>O extrato termina ({end}) antes de começar ({start}).</translation>
    </message>
    <message>
        <source>Please give the id of a statement entry.</source>
        <translation>Informe o identificador de um lançamento do extrato.</translation>
    </message>
    <message>
        <source>Infraction {id} is closed: it no longer accepts a defense.</source>
        <translation>A infração {id} está encerrada: não aceita mais defesa.</translation>
    </message>
    <message>
        <source>Infraction {id}: only an open infraction or one under review accepts a defense.</source>
        <translation>Infração {id}: só uma infração aberta ou em análise aceita defesa.</translation>
    </message>
    <message>
        <source>The deadline to defend infraction {id} passed on {deadline} (Brasília).</source>
        <translation>O prazo de defesa da infração {id} terminou em {deadline} (Brasília).</translation>
    </message>
    <message>
        <source>The defense is text.</source>
        <translation>A defesa é um texto.</translation>
    </message>
    <message>
        <source>Please write the defense: it cannot be empty.</source>
        <translation>Escreva a defesa: ela não pode ficar vazia.</translation>
    </message>
    <message>
        <source>The defense has {length} characters; the bank accepts at most {max}.</source>
        <translation>A defesa tem {length} caracteres; o banco aceita no máximo {max}.</translation>
    </message>
    <message>
        <source>Attachments are a list of file names.</source>
        <translation>Os anexos são uma lista de nomes de arquivo.</translation>
    </message>
    <message>
        <source>An attachment needs a file name.</source>
        <translation>Um anexo precisa de um nome de arquivo.</translation>
    </message>
    <message>
        <source>An attachment name has at most {max} characters.</source>
        <translation>O nome de um anexo tem no máximo {max} caracteres.</translation>
    </message>
    <message>
        <source>Please give the id of an infraction.</source>
        <translation>Informe o identificador de uma infração.</translation>
    </message>
    <message>
        <source>The webhook URL must be text.</source>
        <translation>A URL do webhook deve ser texto.</translation>
    </message>
    <message>
        <source>Please enter the webhook URL (https://...).</source>
        <translation>Informe a URL do webhook (https://...).</translation>
    </message>
    <message>
        <source>The webhook URL has {length} characters; at most {max}.</source>
        <translation>A URL do webhook tem {length} caracteres; no máximo {max}.</translation>
    </message>
    <message>
        <source>The webhook URL may not contain spaces or non-ASCII characters (percent-encode them).</source>
        <translation>A URL do webhook não pode conter espaços nem caracteres fora do ASCII (codifique-os com %).</translation>
    </message>
    <message>
        <source>The webhook URL is not a valid URL.</source>
        <translation>A URL do webhook não é uma URL válida.</translation>
    </message>
    <message>
        <source>The bank only notifies HTTPS addresses: the URL must start with https:// (it has no scheme).</source>
        <translation>O banco só notifica endereços HTTPS: a URL deve começar com https:// (ela não tem esquema).</translation>
    </message>
    <message>
        <source>The bank only notifies HTTPS addresses: the URL must start with https:// (it has {scheme}).</source>
        <translation>O banco só notifica endereços HTTPS: a URL deve começar com https:// (ela tem {scheme}).</translation>
    </message>
    <message>
        <source>The webhook URL may not carry a user name or password (user:password@host).</source>
        <translation>A URL do webhook não pode levar usuário nem senha (usuario:senha@host).</translation>
    </message>
    <message>
        <source>The webhook URL has no host name.</source>
        <translation>A URL do webhook não tem nome de host.</translation>
    </message>
    <message>
        <source>A Pix webhook belongs to one Pix key: choose the key.</source>
        <translation>Um webhook Pix pertence a uma chave Pix: escolha a chave.</translation>
    </message>
    <message>
        <source>Headers are a mapping of names to values.</source>
        <translation>Os cabeçalhos são pares de nome e valor.</translation>
    </message>
    <message>
        <source>“{name}” is not a valid HTTP header name (letters, digits and -_.!#$%&amp;&apos;*+^`|~).</source>
        <translation>“{name}” não é um nome de cabeçalho HTTP válido (letras, dígitos e -_.!#$%&amp;&apos;*+^`|~).</translation>
    </message>
    <message>
        <source>The header {name} is given twice.</source>
        <translation>O cabeçalho {name} aparece duas vezes.</translation>
    </message>
    <message>
        <source>The value of header {name} must be one line of text.</source>
        <translation>O valor do cabeçalho {name} deve ser uma linha de texto.</translation>
    </message>
    <message>
        <source>A header value was typed without its name.</source>
        <translation>Um valor de cabeçalho foi digitado sem o nome.</translation>
    </message>
    <message>
        <source>“{email}” is not an e-mail address.</source>
        <translation>“{email}” não é um endereço de e-mail.</translation>
    </message>
    <message>
        <source>The bank notifies with POST or PUT, not “{method}”.</source>
        <translation>O banco notifica com POST ou PUT, não “{method}”.</translation>
    </message>
    <message>
        <source>Unknown webhook kind “{kind}”; expected one of {known}.</source>
        <translation>Tipo de webhook “{kind}” desconhecido; esperado um de {known}.</translation>
    </message>
    <message>
        <source>{options}: only the Accounts API&apos;s webhooks have these options.</source>
        <translation>{options}: só os webhooks da API de Contas têm estas opções.</translation>
    </message>
    <message>
        <source>{option} is yes or no.</source>
        <translation>{option} é sim ou não.</translation>
    </message>
    <message>
        <source>The receiver&apos;s address is a base URL: no query string nor fragment (the bank appends /pix, /rec and /cobr to it).</source>
        <translation>O endereço do receptor é uma URL base: sem parâmetros de consulta nem fragmento (o banco acrescenta /pix, /rec e /cobr a ela).</translation>
    </message>
    <message>
        <source>Enter the receiver&apos;s secret (its Accounts webhook secret).</source>
        <translation>Informe o segredo do receptor (o segredo do webhook da API de Contas).</translation>
    </message>
    <message>
        <source>The receiver&apos;s address is too long (at most {max} characters).</source>
        <translation>O endereço do receptor é longo demais (no máximo {max} caracteres).</translation>
    </message>
    <message>
        <source>This webhook is not per key: leave the key out.</source>
        <translation>Este webhook não é por chave: deixe a chave de fora.</translation>
    </message>
    <message>
        <source>The proxy {proxy} asks for an integrated Windows login (Negotiate/NTLM), which this app does not give. Ask IT to let these bank hosts through the proxy without a login (and without TLS inspection): {hosts}.</source>
        <translation>O proxy {proxy} pede o login integrado do Windows (Negotiate/NTLM), que este aplicativo não fornece. Peça à TI que libere no proxy estes endereços do banco sem login (e sem inspeção de TLS): {hosts}.</translation>
    </message>
    <message>
        <source>The proxy {proxy} asks for a user name and password ({schemes}), which this app does not give. Ask IT to let these bank hosts through the proxy without a login (and without TLS inspection): {hosts}.</source>
        <translation>O proxy {proxy} pede usuário e senha ({schemes}), que este aplicativo não fornece. Peça à TI que libere no proxy estes endereços do banco sem login (e sem inspeção de TLS): {hosts}.</translation>
    </message>
    <message>
        <source>The automatic proxy script {script} could not be read, so nothing was sent to the bank. Check the network or ask IT about the proxy settings.</source>
        <translation>O script automático de proxy {script} não pôde ser lido; nada foi enviado ao banco. Verifique a rede ou consulte a TI sobre as configurações de proxy.</translation>
    </message>
    <message>
        <source>The automatic proxy script {script} is larger than the {limit} bytes accepted; nothing was sent to the bank. Ask IT to check the proxy settings.</source>
        <translation>O script automático de proxy {script} é maior que os {limit} bytes aceitos; nada foi enviado ao banco. Peça à TI que verifique as configurações de proxy.</translation>
    </message>
    <message>
        <source>The automatic proxy script {script} is not a valid script (no FindProxyForURL); nothing was sent to the bank. Ask IT to check it.</source>
        <translation>O script automático de proxy {script} não é um script válido (sem FindProxyForURL); nada foi enviado ao banco. Peça à TI que o verifique.</translation>
    </message>
    <message>
        <source>The automatic proxy script {script} took too long to answer and was stopped; nothing was sent to the bank. Ask IT to check it.</source>
        <translation>O script automático de proxy {script} demorou demais para responder e foi interrompido; nada foi enviado ao banco. Peça à TI que o verifique.</translation>
    </message>
    <message>
        <source>The automatic proxy script {script} failed while it ran; nothing was sent to the bank. Ask IT to check it.</source>
        <translation>O script automático de proxy {script} falhou durante a execução; nada foi enviado ao banco. Peça à TI que o verifique.</translation>
    </message>
    <message>
        <source>The automatic proxy script {script} gave no usable proxy (only HTTP proxies or DIRECT are used); nothing was sent to the bank. Ask IT to check it.</source>
        <translation>O script automático de proxy {script} não indicou nenhum proxy utilizável (só são usados proxies HTTP ou DIRECT); nada foi enviado ao banco. Peça à TI que o verifique.</translation>
    </message>
    <message>
        <source>The automatic proxy script {script} could not be evaluated (its evaluator did not start); nothing was sent to the bank. Reinstalling the app may fix this.</source>
        <translation>O script automático de proxy {script} não pôde ser avaliado (o avaliador não iniciou); nada foi enviado ao banco. Reinstalar o aplicativo pode resolver.</translation>
    </message>
    <message>
        <source>The proxy&apos;s address is not valid: write it as http://host:port.</source>
        <translation>O endereço do proxy não é válido: escreva-o como http://host:porta.</translation>
    </message>
    <message>
        <source>A proxy&apos;s address starts with http:// or https://.</source>
        <translation>O endereço de um proxy começa com http:// ou https://.</translation>
    </message>
    <message>
        <source>The proxy&apos;s address needs its port (http://host:port).</source>
        <translation>O endereço do proxy precisa da porta (http://host:porta).</translation>
    </message>
    <message>
        <source>A proxy&apos;s address is only http://host:port, with nothing after the port.</source>
        <translation>O endereço de um proxy é apenas http://host:porta, sem nada depois da porta.</translation>
    </message>
    <message>
        <source>Enter the address of the automatic proxy script.</source>
        <translation>Informe o endereço do script automático de proxy.</translation>
    </message>
    <message>
        <source>The address of the automatic proxy script is not valid.</source>
        <translation>O endereço do script automático de proxy não é válido.</translation>
    </message>
    <message>
        <source>The address of the automatic proxy script starts with http://, https:// or file://.</source>
        <translation>O endereço do script automático de proxy começa com http://, https:// ou file://.</translation>
    </message>
    <message>
        <source>The address of the automatic proxy script may not hold a user name.</source>
        <translation>O endereço do script automático de proxy não pode conter um nome de usuário.</translation>
    </message>
    <message>
        <source>The file {file} does not exist.</source>
        <translation>O arquivo {file} não existe.</translation>
    </message>
    <message>
        <source>The file {file} cannot be read: it cannot be opened or is not valid JSON.</source>
        <translation>O arquivo {file} não pode ser lido: não abre ou não é um JSON válido.</translation>
    </message>
    <message>
        <source>The file {file} is not a profile: it does not hold a JSON object.</source>
        <translation>O arquivo {file} não é um perfil: não contém um objeto JSON.</translation>
    </message>
    <message>
        <source>The sandbox bank&apos;s file {file} lacks “{setting}”: start the sandbox bank again.</source>
        <translation>Falta “{setting}” no arquivo {file} do banco sandbox: inicie o banco sandbox de novo.</translation>
    </message>
    <message>
        <source>Set the environment variable {variable}: this secret is never read from the profile file.</source>
        <translation>Defina a variável de ambiente {variable}: este segredo nunca é lido do arquivo de perfil.</translation>
    </message>
    <message>
        <source>The profile file {file} has no section for the {api}.</source>
        <translation>O arquivo de perfil {file} não tem a seção da {api}.</translation>
    </message>
    <message>
        <source>The profile file {file} lacks the setting “{setting}” of the {api}.</source>
        <translation>Falta no arquivo de perfil {file} a configuração “{setting}” da {api}.</translation>
    </message>
    <message>
        <source>In the profile file {file}, the address of the {api} must start with https://.</source>
        <translation>No arquivo de perfil {file}, o endereço da {api} deve começar com https://.</translation>
    </message>
    <message>
        <source>The team database needs a host name or address.</source>
        <translation>O banco de dados da equipe precisa de um nome de servidor ou endereço.</translation>
    </message>
    <message>
        <source>The team database needs a database name.</source>
        <translation>O banco de dados da equipe precisa do nome do banco.</translation>
    </message>
    <message>
        <source>The team database needs your login (a PostgreSQL role).</source>
        <translation>O banco de dados da equipe precisa do seu login (um papel do PostgreSQL).</translation>
    </message>
    <message>
        <source>The team database&apos;s port {port} is not a port (1 to 65535).</source>
        <translation>A porta {port} do banco de dados da equipe não é uma porta (de 1 a 65535).</translation>
    </message>
    <message>
        <source>“{sslmode}” is not a security mode of the connection to the team database.</source>
        <translation>“{sslmode}” não é um modo de segurança da conexão com o banco de dados da equipe.</translation>
    </message>
    <message>
        <source>A client certificate needs both its certificate file and its key file.</source>
        <translation>Um certificado de cliente precisa do arquivo do certificado e do arquivo da chave.</translation>
    </message>
    <message>
        <source>The team database&apos;s settings are incomplete: “{setting}” is missing.</source>
        <translation>As configurações do banco de dados da equipe estão incompletas: falta “{setting}”.</translation>
    </message>
    <message>
        <source>A team database&apos;s address starts with postgresql:// (for example postgresql://ana@db.empresa.com.br:5432/tesouraria?sslmode=verify-full).</source>
        <translation>O endereço de um banco de dados da equipe começa com postgresql:// (por exemplo postgresql://ana@db.empresa.com.br:5432/tesouraria?sslmode=verify-full).</translation>
    </message>
    <message>
        <source>The port in the team database&apos;s address is not a number.</source>
        <translation>A porta no endereço do banco de dados da equipe não é um número.</translation>
    </message>
    <message>
        <source>Enter the client secret of the {api} (none is kept in the system keyring for this profile).</source>
        <translation>Informe o client secret da {api} (nenhum está guardado no chaveiro do sistema para este perfil).</translation>
    </message>
    <message>
        <source>Enter the certificate password of the {api}.</source>
        <translation>Informe a senha do certificado da {api}.</translation>
    </message>
    <message>
        <source>Enter the password of the team database ({where}).</source>
        <translation>Informe a senha do banco de dados da equipe ({where}).</translation>
    </message>
    <message>
        <source>Sample slips exist only in the sandbox bank.</source>
        <translation>Boletos de exemplo existem só no banco sandbox.</translation>
    </message>
    <message>
        <source>The sandbox bank could not be reached.</source>
        <translation>Não foi possível falar com o banco sandbox.</translation>
    </message>
    <message>
        <source>The sandbox bank answered {status}.</source>
        <translation>O banco sandbox respondeu {status}.</translation>
    </message>
    <message>
        <source>The sandbox bank&apos;s answer could not be read.</source>
        <translation>Não foi possível ler a resposta do banco sandbox.</translation>
    </message>
    <message>
        <source>Choose a folder for the backups first (Settings → Backups).</source>
        <translation>Escolha antes uma pasta para as cópias (Configurações → Cópias de segurança).</translation>
    </message>
    <message>
        <source>The backup folder {folder} cannot be reached (a share offline?).</source>
        <translation>Não foi possível acessar a pasta de cópias {folder} (pasta de rede fora do ar?).</translation>
    </message>
    <message>
        <source>{folder} is the app&apos;s own ledgers folder: choose another disk or a network share, which a broken or reimaged computer does not take with it.</source>
        <translation>{folder} é a própria pasta de registros do aplicativo: escolha outro disco ou uma pasta de rede, que um computador quebrado ou reinstalado não leva junto.</translation>
    </message>
    <message>
        <source>The backup could not be written to {folder}: {error}. Nothing was kept.</source>
        <translation>Não foi possível gravar a cópia em {folder}: {error}. Nada foi mantido.</translation>
    </message>
    <message>
        <source>The ledger in this backup is damaged (its check says: {check}).</source>
        <translation>O registro de operações desta cópia está danificado (a verificação diz: {check}).</translation>
    </message>
    <message>
        <source>This folder is not a complete backup: it has no manifest.</source>
        <translation>Esta pasta não é uma cópia completa: ela não tem manifesto.</translation>
    </message>
    <message>
        <source>This backup&apos;s manifest cannot be read or is not this app&apos;s.</source>
        <translation>O manifesto desta cópia não pode ser lido ou não é deste aplicativo.</translation>
    </message>
    <message>
        <source>This backup was written by a newer version of the app: update it first.</source>
        <translation>Esta cópia foi gravada por uma versão mais nova do aplicativo: atualize-o antes.</translation>
    </message>
    <message>
        <source>The file {file} of this backup is missing: the backup is damaged.</source>
        <translation>Falta o arquivo {file} nesta cópia: a cópia está danificada.</translation>
    </message>
    <message>
        <source>The file {file} of this backup is not the one that was backed up (its SHA-256 differs): the backup is damaged.</source>
        <translation>O arquivo {file} desta cópia não é o que foi copiado (o SHA-256 dele é outro): a cópia está danificada.</translation>
    </message>
    <message>
        <source>A team database is restored by its administrator, not from a desktop&apos;s backup.</source>
        <translation>Um banco de dados da equipe é restaurado pelo administrador dele, não pela cópia de um computador.</translation>
    </message>
    <message>
        <source>This backup is of the profile “{profile}”, not of the one open.</source>
        <translation>Esta cópia é do perfil “{profile}”, não do perfil aberto.</translation>
    </message>
    <message>
        <source>This backup&apos;s ledger was written by a newer version of the app (schema {schema}; this version reads up to {supported}): update the app first.</source>
        <translation>O registro de operações desta cópia foi gravado por uma versão mais nova do aplicativo (esquema {schema}; esta versão lê até o {supported}): atualize o aplicativo antes.</translation>
    </message>
    <message>
        <source>The ledger is being changed or backed up right now: try again in a moment.</source>
        <translation>O registro de operações está sendo alterado ou copiado agora: tente de novo em instantes.</translation>
    </message>
    <message>
        <source>The restore could not be done ({error}); the ledger was not changed.</source>
        <translation>Não foi possível restaurar ({error}); o registro de operações não foi alterado.</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>sim</translation>
    </message>
    <message>
        <source>no</source>
        <translation>não</translation>
    </message>
</context>
<context>
    <name>SandboxActions</name>
    <message>
        <source>The sandbox bank refused this simulation.</source>
        <translation>O banco sandbox recusou esta simulação.</translation>
    </message>
    <message>
        <source>The sandbox bank does not know this recurrence.</source>
        <translation>O banco sandbox não conhece esta recorrência.</translation>
    </message>
    <message>
        <source>The recurrence is no longer waiting for the payer (its status: %1).</source>
        <translation>A recorrência não espera mais o pagador (situação: %1).</translation>
    </message>
    <message>
        <source>The sandbox bank does not know this confirmation request.</source>
        <translation>O banco sandbox não conhece esta solicitação de confirmação.</translation>
    </message>
    <message>
        <source>The sandbox bank does not know this recurring charge.</source>
        <translation>O banco sandbox não conhece esta cobrança recorrente.</translation>
    </message>
    <message>
        <source>The recurring charge has no next attempt (its status: %1).</source>
        <translation>A cobrança recorrente não tem próxima tentativa (situação: %1).</translation>
    </message>
    <message>
        <source>The sandbox bank does not know this charge.</source>
        <translation>O banco sandbox não conhece esta cobrança.</translation>
    </message>
    <message>
        <source>The charge&apos;s amount is fixed: the payer cannot pay another.</source>
        <translation>O valor da cobrança é fixo: o pagador não pode pagar outro.</translation>
    </message>
    <message>
        <source>The sandbox bank does not know this payment.</source>
        <translation>O banco sandbox não conhece este pagamento.</translation>
    </message>
    <message>
        <source>The payment is no longer waiting for approval (its status: %1).</source>
        <translation>O pagamento não aguarda mais aprovação (situação: %1).</translation>
    </message>
    <message>
        <source>The sandbox clock cannot be moved to that time.</source>
        <translation>O relógio do sandbox não pode ser levado a esse horário.</translation>
    </message>
    <message>
        <source>It did not accept this profile&apos;s certificate or credentials.</source>
        <translation>Ele não aceitou o certificado ou as credenciais deste perfil.</translation>
    </message>
    <message>
        <source>It does not know what was asked.</source>
        <translation>Ele não conhece o que foi pedido.</translation>
    </message>
    <message>
        <source>It is busy: try again in a moment.</source>
        <translation>Ele está ocupado: tente de novo em instantes.</translation>
    </message>
    <message>
        <source>It failed on its side (an injected fault, or an error of its own).</source>
        <translation>Ele falhou do lado dele (uma falha injetada ou um erro próprio).</translation>
    </message>
    <message>
        <source>The sandbox clock could not be read.</source>
        <translation>Não foi possível ler o relógio do sandbox.</translation>
    </message>
    <message>
        <source>The sandbox bank could not be reached: is it running? (The log has the details.)</source>
        <translation>Não foi possível contatar o banco sandbox: ele está em execução? (O registro tem os detalhes.)</translation>
    </message>
    <message>
        <source>The charge has no attempt waiting to be settled.</source>
        <translation>A cobrança não tem tentativa aguardando liquidação.</translation>
    </message>
    <message>
        <source>This profile is not the sandbox bank&apos;s: simulations exist only in the sandbox.</source>
        <translation>Este perfil não é o do banco sandbox: as simulações existem apenas no sandbox.</translation>
    </message>
</context>
<context>
    <name>ScheduleSettingsPanel</name>
    <message>
        <source>Scheduled payments</source>
        <translation>Pagamentos agendados</translation>
    </message>
    <message>
        <source>Kept in this profile. In a team, each releasing desktop sends at its own profile&apos;s time; the team database still lets nothing leave before its date.</source>
        <translation>Guardado neste perfil. Numa equipe, cada computador que libera envia no horário do seu próprio perfil; o banco de dados da equipe continua não deixando nada sair antes da data.</translation>
    </message>
    <message>
        <source>HH:MM, e.g. 08:00</source>
        <translation>HH:MM, ex.: 08:00</translation>
    </message>
    <message>
        <source>Send at (Brasília)</source>
        <translation>Enviar às (Brasília)</translation>
    </message>
    <message>
        <source>e.g. 5,00</source>
        <translation>ex.: 5,00</translation>
    </message>
    <message>
        <source>A slip&apos;s amount may change by</source>
        <translation>O valor de um boleto pode mudar até</translation>
    </message>
    <message>
        <source>1 to 10</source>
        <translation>1 a 10</translation>
    </message>
    <message>
        <source>Tries when the balance is short</source>
        <translation>Tentativas quando falta saldo</translation>
    </message>
    <message>
        <source>HH:MM, e.g. 17:00</source>
        <translation>HH:MM, ex.: 17:00</translation>
    </message>
    <message>
        <source>Hold for a person after (Brasília)</source>
        <translation>Reter para uma pessoa depois das (Brasília)</translation>
    </message>
    <message>
        <source>dd/mm/yyyy, one per line: the city&apos;s holidays, the company&apos;s days off</source>
        <translation>dd/mm/aaaa, um por linha: feriados da cidade, folgas da empresa</translation>
    </message>
    <message>
        <source>Other non-business days</source>
        <translation>Outros dias não úteis</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Salvar</translation>
    </message>
    <message>
        <source>Saved: scheduled payments follow these from now on.</source>
        <translation>Salvo: os pagamentos agendados seguem isto a partir de agora.</translation>
    </message>
</context>
<context>
    <name>SeriesEditDialog</name>
    <message>
        <source>Edit the recurring payment</source>
        <translation>Editar o pagamento recorrente</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>Revisar</translation>
    </message>
    <message>
        <source>Confirm</source>
        <translation>Confirmar</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fechar</translation>
    </message>
    <message>
        <source>Recurring payment to %1</source>
        <translation>Pagamento recorrente para %1</translation>
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
        <source>From</source>
        <translation>A partir de</translation>
    </message>
    <message>
        <source>Repeat</source>
        <translation>Repetir</translation>
    </message>
    <message>
        <source>Review to see which payments change.</source>
        <translation>Revise para ver quais pagamentos mudam.</translation>
    </message>
    <message>
        <source>Please check the form</source>
        <translation>Verifique o formulário</translation>
    </message>
</context>
<context>
    <name>SeriesEndDialog</name>
    <message>
        <source>End the recurring payment</source>
        <translation>Encerrar o pagamento recorrente</translation>
    </message>
    <message>
        <source>No more payments to %1 of %2 will be made.</source>
        <translation>Nenhum outro pagamento para %1 de %2 será feito.</translation>
    </message>
    <message>
        <source>Why (kept in the audit)</source>
        <translation>Por quê (guardado na auditoria)</translation>
    </message>
    <message>
        <source>End series</source>
        <translation>Encerrar série</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fechar</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Motivo</translation>
    </message>
</context>
<context>
    <name>SeriesReview</name>
    <message>
        <source>Change (%1):</source>
        <translation>Mudam (%1):</translation>
    </message>
    <message>
        <source>Cancelled (%1):</source>
        <translation>Cancelados (%1):</translation>
    </message>
    <message>
        <source>Cancelled, no longer on the series&apos; dates (%1):</source>
        <translation>Cancelados, fora das novas datas da série (%1):</translation>
    </message>
    <message>
        <source>Stay as they are, already approved or sent (%1):</source>
        <translation>Permanecem como estão, já aprovados ou enviados (%1):</translation>
    </message>
    <message>
        <source>New, within the next days (%1): %2</source>
        <translation>Novos, nos próximos dias (%1): %2</translation>
    </message>
    <message>
        <source>Not made any more, in the next %3 weeks (%1): %2</source>
        <translation>Não serão mais feitos, nas próximas %3 semanas (%1): %2</translation>
    </message>
    <message>
        <source>, and those after them</source>
        <translation>, nem os seguintes</translation>
    </message>
    <message>
        <source>Its later payments, after the next %1 weeks, are not made.</source>
        <translation>Os pagamentos seguintes, depois das próximas %1 semanas, não serão feitos.</translation>
    </message>
    <message>
        <source>No payment already journaled changes.</source>
        <translation>Nenhum pagamento já registrado muda.</translation>
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
        <source>Kept in the system keyring (%1).</source>
        <translation>Guardados no chaveiro do sistema (%1).</translation>
    </message>
    <message>
        <source>The keyring backend (%1) stores secrets in a plain-text file: client secrets are asked for at each unlock instead.</source>
        <translation>O chaveiro (%1) guarda segredos em um arquivo de texto simples: os segredos do cliente são pedidos a cada desbloqueio.</translation>
    </message>
    <message>
        <source>No system keyring was found: client secrets are asked for at each unlock.</source>
        <translation>Nenhum chaveiro do sistema foi encontrado: os segredos do cliente são pedidos a cada desbloqueio.</translation>
    </message>
    <message>
        <source>Client secrets</source>
        <translation>Segredos do cliente</translation>
    </message>
    <message>
        <source>valid until %1</source>
        <translation>válido até %1</translation>
    </message>
    <message>
        <source>Profile &amp; certificates</source>
        <translation>Perfil e certificados</translation>
    </message>
    <message>
        <source>Webhooks</source>
        <translation>Webhooks</translation>
    </message>
    <message>
        <source>Infractions</source>
        <translation>Infrações</translation>
    </message>
    <message>
        <source>Scheduled payments</source>
        <translation>Pagamentos agendados</translation>
    </message>
    <message>
        <source>Audit log</source>
        <translation>Registro de auditoria</translation>
    </message>
    <message>
        <source>Backups</source>
        <translation>Cópias de segurança</translation>
    </message>
    <message>
        <source>About &amp; support</source>
        <translation>Sobre e suporte</translation>
    </message>
    <message>
        <source>Managed by your organisation</source>
        <translation>Gerenciado pela sua organização</translation>
    </message>
    <message>
        <source>This proxy: %1</source>
        <translation>Este proxy: %1</translation>
    </message>
    <message>
        <source>No proxy (direct)</source>
        <translation>Sem proxy (direto)</translation>
    </message>
    <message>
        <source>The system&apos;s proxy</source>
        <translation>O proxy do sistema</translation>
    </message>
    <message>
        <source>direct (this computer)</source>
        <translation>direto (este computador)</translation>
    </message>
    <message>
        <source>direct (bypass list)</source>
        <translation>direto (lista de exceções)</translation>
    </message>
    <message>
        <source>direct (no system proxy)</source>
        <translation>direto (sem proxy no sistema)</translation>
    </message>
    <message>
        <source>through %1</source>
        <translation>via %1</translation>
    </message>
    <message>
        <source>direct</source>
        <translation>direto</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Proxy</source>
        <translation>Proxy</translation>
    </message>
    <message>
        <source>Audit log (newest first)</source>
        <translation>Registro de auditoria (mais recentes primeiro)</translation>
    </message>
</context>
<context>
    <name>StatementDialog</name>
    <message>
        <source>Statement of account</source>
        <translation>Extrato do favorecido</translation>
    </message>
    <message>
        <source>Every payment to %1&apos;s keys and accounts, in one .zip file: a spreadsheet (CSV) and the receipts the app kept.</source>
        <translation>Todos os pagamentos às chaves e contas de %1, em um único arquivo .zip: uma planilha (CSV) e os comprovantes que o app guardou.</translation>
    </message>
    <message>
        <source>Every payment (no period)</source>
        <translation>Todos os pagamentos (sem período)</translation>
    </message>
    <message>
        <source>From</source>
        <translation>De</translation>
    </message>
    <message>
        <source>to</source>
        <translation>a</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Exportar…</translation>
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
        <source>Not a date</source>
        <translation>Data inválida</translation>
    </message>
    <message>
        <source>Loading entries…</source>
        <translation>Carregando lançamentos…</translation>
    </message>
    <message>
        <source>Could not refresh: the entries shown were last updated at %1 and may be out of date.</source>
        <translation>Não foi possível atualizar: os lançamentos mostrados foram atualizados pela última vez às %1 e podem estar desatualizados.</translation>
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
        <source>The export was interrupted</source>
        <translation>A exportação foi interrompida</translation>
    </message>
    <message>
        <source>Bank</source>
        <translation>Banco</translation>
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
    <name>StatusWords</name>
    <message>
        <source>Queued</source>
        <translation>Na fila</translation>
    </message>
    <message>
        <source>Processing</source>
        <translation>Em processamento</translation>
    </message>
    <message>
        <source>Settled</source>
        <translation>Liquidado</translation>
    </message>
    <message>
        <source>Paid</source>
        <translation>Pago</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Cancelado</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>Rejeitado</translation>
    </message>
    <message>
        <source>Waiting for approval</source>
        <translation>Aguardando aprovação</translation>
    </message>
    <message>
        <source>Waiting for confirmation</source>
        <translation>Aguardando confirmação</translation>
    </message>
    <message>
        <source>Refunded</source>
        <translation>Devolvido</translation>
    </message>
    <message>
        <source>Partly refunded</source>
        <translation>Devolvido em parte</translation>
    </message>
    <message>
        <source>Prepared</source>
        <translation>Preparado</translation>
    </message>
    <message>
        <source>Sending</source>
        <translation>Enviando</translation>
    </message>
    <message>
        <source>Not confirmed</source>
        <translation>Não confirmado</translation>
    </message>
    <message>
        <source>Accepted</source>
        <translation>Aceito</translation>
    </message>
    <message>
        <source>Instant</source>
        <translation>Imediato</translation>
    </message>
    <message>
        <source>Held for approval</source>
        <translation>Retido para aprovação</translation>
    </message>
    <message>
        <source>Recorded before sending</source>
        <translation>Registrado antes do envio</translation>
    </message>
    <message>
        <source>The bank&apos;s own word overruled the outcome a desktop recorded</source>
        <translation>A palavra do próprio banco prevaleceu sobre o resultado que um computador registrou</translation>
    </message>
    <message>
        <source>A desktop recorded another outcome; the bank&apos;s own word stands</source>
        <translation>Um computador registrou outro resultado; vale a palavra do próprio banco</translation>
    </message>
    <message>
        <source>Accepted by the bank</source>
        <translation>Aceito pelo banco</translation>
    </message>
    <message>
        <source>No answer from the bank</source>
        <translation>Sem resposta do banco</translation>
    </message>
    <message>
        <source>The bank could not be asked</source>
        <translation>Não foi possível consultar o banco</translation>
    </message>
    <message>
        <source>Checking with the bank</source>
        <translation>Consultando o banco</translation>
    </message>
    <message>
        <source>Found at the bank</source>
        <translation>Encontrado no banco</translation>
    </message>
    <message>
        <source>Sent again (the bank had not got it)</source>
        <translation>Reenviado (o banco não o tinha recebido)</translation>
    </message>
    <message>
        <source>Sent again (confirmed by a person)</source>
        <translation>Reenviado (confirmado por uma pessoa)</translation>
    </message>
    <message>
        <source>Accepted on the second sending</source>
        <translation>Aceito no reenvio</translation>
    </message>
    <message>
        <source>Still not confirmed</source>
        <translation>Ainda não confirmado</translation>
    </message>
    <message>
        <source>Refused by the bank</source>
        <translation>Recusado pelo banco</translation>
    </message>
    <message>
        <source>Waiting for a person</source>
        <translation>Aguardando uma pessoa</translation>
    </message>
    <message>
        <source>Cancelled by a person</source>
        <translation>Cancelado por uma pessoa</translation>
    </message>
    <message>
        <source>Status from the bank</source>
        <translation>Situação informada pelo banco</translation>
    </message>
    <message>
        <source>Notified by the bank</source>
        <translation>Notificado pelo banco</translation>
    </message>
    <message>
        <source>Checked again with the bank</source>
        <translation>Conferido de novo com o banco</translation>
    </message>
    <message>
        <source>Checked again: the bank does not have it</source>
        <translation>Conferido de novo: o banco não tem este pagamento</translation>
    </message>
    <message>
        <source>Refused before sending</source>
        <translation>Recusado antes do envio</translation>
    </message>
    <message>
        <source>Pix payout</source>
        <translation>Pagamento Pix</translation>
    </message>
    <message>
        <source>Pix batch</source>
        <translation>Lote Pix</translation>
    </message>
    <message>
        <source>Slip payment</source>
        <translation>Pagamento de boleto</translation>
    </message>
    <message>
        <source>Payment checked with the bank</source>
        <translation>Pagamento conferido com o banco</translation>
    </message>
    <message>
        <source>Pending payments checked</source>
        <translation>Pagamentos pendentes conferidos</translation>
    </message>
    <message>
        <source>Resend held for a person</source>
        <translation>Reenvio retido para uma pessoa</translation>
    </message>
    <message>
        <source>Resend confirmed</source>
        <translation>Reenvio confirmado</translation>
    </message>
    <message>
        <source>Payment cancelled</source>
        <translation>Pagamento cancelado</translation>
    </message>
    <message>
        <source>Payment refused</source>
        <translation>Pagamento recusado</translation>
    </message>
    <message>
        <source>Outcome overruled by the bank</source>
        <translation>Resultado corrigido pelo banco</translation>
    </message>
    <message>
        <source>Receipt archived</source>
        <translation>Comprovante arquivado</translation>
    </message>
    <message>
        <source>Profile unlocked</source>
        <translation>Perfil desbloqueado</translation>
    </message>
    <message>
        <source>Certificate loaded</source>
        <translation>Certificado carregado</translation>
    </message>
    <message>
        <source>Profile saved</source>
        <translation>Perfil salvo</translation>
    </message>
    <message>
        <source>Bank servers confirmed</source>
        <translation>Servidores do banco confirmados</translation>
    </message>
    <message>
        <source>Infraction defense</source>
        <translation>Defesa de infração</translation>
    </message>
    <message>
        <source>Submitted for approval</source>
        <translation>Enviado para aprovação</translation>
    </message>
    <message>
        <source>Approval</source>
        <translation>Aprovação</translation>
    </message>
    <message>
        <source>Rejected by an approver</source>
        <translation>Rejeitado por um aprovador</translation>
    </message>
    <message>
        <source>Withdrawn by its maker</source>
        <translation>Retirado por quem o preparou</translation>
    </message>
    <message>
        <source>Changed while waiting for approval</source>
        <translation>Alterado enquanto aguardava aprovação</translation>
    </message>
    <message>
        <source>Released after approval</source>
        <translation>Liberado após aprovação</translation>
    </message>
    <message>
        <source>Batch approval</source>
        <translation>Aprovação de lote</translation>
    </message>
    <message>
        <source>Approvals expired</source>
        <translation>Aprovações expiradas</translation>
    </message>
    <message>
        <source>Unlock attempt</source>
        <translation>Tentativa de desbloqueio</translation>
    </message>
    <message>
        <source>Approval policy changed</source>
        <translation>Política de aprovação alterada</translation>
    </message>
    <message>
        <source>Time before an open session is stale changed</source>
        <translation>Tempo até uma sessão aberta ficar parada alterado</translation>
    </message>
    <message>
        <source>Stale session ended by a colleague</source>
        <translation>Sessão parada encerrada por um colega</translation>
    </message>
    <message>
        <source>Receipt confirmed by a second fetch from the bank</source>
        <translation>Comprovante confirmado por uma segunda consulta ao banco</translation>
    </message>
    <message>
        <source>Receipt disputed: the bank&apos;s copy differs</source>
        <translation>Comprovante contestado: a cópia do banco é diferente</translation>
    </message>
    <message>
        <source>Approval limits changed</source>
        <translation>Limites de aprovação alterados</translation>
    </message>
    <message>
        <source>Approval policy changed by force</source>
        <translation>Política de aprovação alterada à força</translation>
    </message>
    <message>
        <source>Payee registry policy changed</source>
        <translation>Política do cadastro de favorecidos alterada</translation>
    </message>
    <message>
        <source>Session limits changed</source>
        <translation>Limites de sessão alterados</translation>
    </message>
    <message>
        <source>Login added</source>
        <translation>Usuário adicionado</translation>
    </message>
    <message>
        <source>Login removed</source>
        <translation>Usuário removido</translation>
    </message>
    <message>
        <source>Login disabled</source>
        <translation>Usuário desativado</translation>
    </message>
    <message>
        <source>Login enabled again</source>
        <translation>Usuário reativado</translation>
    </message>
    <message>
        <source>Login password reset</source>
        <translation>Senha de usuário redefinida</translation>
    </message>
    <message>
        <source>Ledger imported</source>
        <translation>Registro de operações importado</translation>
    </message>
    <message>
        <source>Team database upgraded</source>
        <translation>Banco de dados da equipe atualizado</translation>
    </message>
    <message>
        <source>Approval voided</source>
        <translation>Aprovação anulada</translation>
    </message>
    <message>
        <source>Audit trail does not match</source>
        <translation>Trilha de auditoria não confere</translation>
    </message>
    <message>
        <source>Ledger backed up</source>
        <translation>Cópia de segurança do registro de operações</translation>
    </message>
    <message>
        <source>Profile locked</source>
        <translation>Perfil bloqueado</translation>
    </message>
    <message>
        <source>Profile deleted</source>
        <translation>Perfil excluído</translation>
    </message>
    <message>
        <source>Client secret kept in the keyring</source>
        <translation>Segredo do cliente guardado no chaveiro do sistema</translation>
    </message>
    <message>
        <source>Client secret removed from the keyring</source>
        <translation>Segredo do cliente removido do chaveiro do sistema</translation>
    </message>
    <message>
        <source>Webhook registered</source>
        <translation>Webhook registrado</translation>
    </message>
    <message>
        <source>Webhook removed</source>
        <translation>Webhook removido</translation>
    </message>
    <message>
        <source>Charge created</source>
        <translation>Cobrança criada</translation>
    </message>
    <message>
        <source>Charge revised</source>
        <translation>Cobrança revisada</translation>
    </message>
    <message>
        <source>Charge cancelled</source>
        <translation>Cobrança cancelada</translation>
    </message>
    <message>
        <source>Charge batch sent</source>
        <translation>Lote de cobranças enviado</translation>
    </message>
    <message>
        <source>Charge batch revised</source>
        <translation>Lote de cobranças revisado</translation>
    </message>
    <message>
        <source>Refund requested</source>
        <translation>Devolução solicitada</translation>
    </message>
    <message>
        <source>QR Code location created</source>
        <translation>Localização de QR Code criada</translation>
    </message>
    <message>
        <source>QR Code location unlinked</source>
        <translation>Localização de QR Code desvinculada</translation>
    </message>
    <message>
        <source>Recurrence created</source>
        <translation>Recorrência criada</translation>
    </message>
    <message>
        <source>Recurrence revised</source>
        <translation>Recorrência revisada</translation>
    </message>
    <message>
        <source>Recurrence cancelled</source>
        <translation>Recorrência cancelada</translation>
    </message>
    <message>
        <source>Confirmation request sent</source>
        <translation>Solicitação de confirmação enviada</translation>
    </message>
    <message>
        <source>Confirmation request cancelled</source>
        <translation>Solicitação de confirmação cancelada</translation>
    </message>
    <message>
        <source>Recurrence location created</source>
        <translation>Localização de recorrência criada</translation>
    </message>
    <message>
        <source>Recurrence location linked</source>
        <translation>Localização de recorrência vinculada</translation>
    </message>
    <message>
        <source>Recurrence location unlinked</source>
        <translation>Localização de recorrência desvinculada</translation>
    </message>
    <message>
        <source>Recurring charge created</source>
        <translation>Cobrança recorrente criada</translation>
    </message>
    <message>
        <source>Recurring charge cancelled</source>
        <translation>Cobrança recorrente cancelada</translation>
    </message>
    <message>
        <source>Recurring charge retry scheduled</source>
        <translation>Nova tentativa de cobrança recorrente agendada</translation>
    </message>
    <message>
        <source>accepted</source>
        <translation>aceito</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>rejeitado</translation>
    </message>
    <message>
        <source>no answer</source>
        <translation>sem resposta</translation>
    </message>
    <message>
        <source>done</source>
        <translation>feito</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>falhou</translation>
    </message>
    <message>
        <source>found</source>
        <translation>encontrado</translation>
    </message>
    <message>
        <source>sent again</source>
        <translation>reenviado</translation>
    </message>
    <message>
        <source>held</source>
        <translation>retido</translation>
    </message>
    <message>
        <source>started</source>
        <translation>iniciado</translation>
    </message>
    <message>
        <source>sent</source>
        <translation>enviado</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>interrompido</translation>
    </message>
    <message>
        <source>confirmed</source>
        <translation>confirmado</translation>
    </message>
    <message>
        <source>declined</source>
        <translation>recusado</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>aguardando</translation>
    </message>
    <message>
        <source>approved</source>
        <translation>aprovado</translation>
    </message>
    <message>
        <source>approved in part</source>
        <translation>aprovado em parte</translation>
    </message>
    <message>
        <source>withdrawn</source>
        <translation>retirado</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>alterado</translation>
    </message>
    <message>
        <source>released</source>
        <translation>liberado</translation>
    </message>
    <message>
        <source>decided</source>
        <translation>decidido</translation>
    </message>
    <message>
        <source>expired</source>
        <translation>expirado</translation>
    </message>
    <message>
        <source>refused</source>
        <translation>recusado</translation>
    </message>
    <message>
        <source>not sent</source>
        <translation>não enviado</translation>
    </message>
    <message>
        <source>not an amount of money</source>
        <translation>valor inválido</translation>
    </message>
    <message>
        <source>the bank&apos;s word applied</source>
        <translation>vale a palavra do banco</translation>
    </message>
    <message>
        <source>the bank&apos;s word stands</source>
        <translation>a palavra do banco se mantém</translation>
    </message>
    <message>
        <source>refused in part</source>
        <translation>recusado em parte</translation>
    </message>
    <message>
        <source>voided</source>
        <translation>anulado</translation>
    </message>
    <message>
        <source>ended: left open too long</source>
        <translation>encerrada: ficou aberta tempo demais</translation>
    </message>
    <message>
        <source>the same as the bank&apos;s</source>
        <translation>igual ao do banco</translation>
    </message>
    <message>
        <source>not the same as the bank&apos;s</source>
        <translation>diferente do do banco</translation>
    </message>
    <message>
        <source>The bank says otherwise than %1 recorded (%2)</source>
        <translation>O banco contradiz o que %1 registrou (%2)</translation>
    </message>
    <message>
        <source>Approved by %1 (%2 of %3)</source>
        <translation>Aprovado por %1 (%2 de %3)</translation>
    </message>
    <message>
        <source>Withdrawn by %1</source>
        <translation>Retirado por %1</translation>
    </message>
    <message>
        <source>Amount or description changed: %1 approval(s) void</source>
        <translation>Valor ou descrição alterados: %1 aprovação(ões) anulada(s)</translation>
    </message>
    <message>
        <source>Withdrawn: %1 was removed from the team</source>
        <translation>Retirado: %1 foi removido da equipe</translation>
    </message>
    <message>
        <source>Approval by %1 void: removed from the team (%2 of %3)</source>
        <translation>Aprovação de %1 anulada: removido da equipe (%2 de %3)</translation>
    </message>
    <message>
        <source>Not sent: the amount is not money</source>
        <translation>Não enviado: o valor não é uma quantia de dinheiro</translation>
    </message>
    <message>
        <source>Rejected by %1: %2</source>
        <translation>Rejeitado por %1: %2</translation>
    </message>
    <message>
        <source>Withdrawn by %1: %2</source>
        <translation>Retirado por %1: %2</translation>
    </message>
    <message>
        <source>the approval expired</source>
        <translation>a aprovação expirou</translation>
    </message>
    <message>
        <source>the amount or description changed</source>
        <translation>o valor ou a descrição mudou</translation>
    </message>
    <message>
        <source>the approver was removed from the team</source>
        <translation>o aprovador foi removido da equipe</translation>
    </message>
    <message>
        <source>its maker was removed from the team</source>
        <translation>quem o preparou foi removido da equipe</translation>
    </message>
    <message>
        <source>its recurring payment was changed to other dates</source>
        <translation>seu pagamento recorrente passou para outras datas</translation>
    </message>
    <message>
        <source>Policy %1</source>
        <translation>Política %1</translation>
    </message>
    <message>
        <source>Waiting for approval %1/%2</source>
        <translation>Aguardando aprovação %1/%2</translation>
    </message>
    <message>
        <source>Approved</source>
        <translation>Aprovado</translation>
    </message>
    <message>
        <source>Approved and released</source>
        <translation>Aprovado e liberado</translation>
    </message>
    <message>
        <source>Rejected by %1</source>
        <translation>Rejeitado por %1</translation>
    </message>
    <message>
        <source>Withdrawn</source>
        <translation>Retirado</translation>
    </message>
    <message>
        <source>Submitted for approval (%1 of %2)</source>
        <translation>Enviado para aprovação (%1 de %2)</translation>
    </message>
</context>
<context>
    <name>SupportPanel</name>
    <message>
        <source>About and support</source>
        <translation>Sobre e suporte</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>Versão</translation>
    </message>
    <message>
        <source>No log file in this run.</source>
        <translation>Nenhum arquivo de log nesta execução.</translation>
    </message>
    <message>
        <source>Open folder</source>
        <translation>Abrir pasta</translation>
    </message>
    <message>
        <source>Log folder</source>
        <translation>Pasta de logs</translation>
    </message>
    <message>
        <source>Copy diagnostics</source>
        <translation>Copiar diagnóstico</translation>
    </message>
    <message>
        <source>Versions, system, profile kind and the log folder, for the support desk. No password, secret or token is ever included.</source>
        <translation>Versões, sistema, tipo de perfil e pasta de logs, para o suporte. Nunca inclui senha, segredo ou token.</translation>
    </message>
    <message>
        <source>Ledger backup</source>
        <translation>Cópia de segurança do registro de operações</translation>
    </message>
    <message>
        <source>A complete backup of this profile&apos;s ledger (payments, audit) and receipts as they are now, made while the app keeps working, into a folder you choose. Automatic backups and restoring one: the Backups page.</source>
        <translation>Uma cópia de segurança completa do registro de operações deste perfil (pagamentos, auditoria) e dos comprovantes como estão agora, feita sem interromper o aplicativo, na pasta que você escolher. Cópias automáticas e restauração: a página Cópias de segurança.</translation>
    </message>
    <message>
        <source>Back up ledger…</source>
        <translation>Fazer cópia de segurança…</translation>
    </message>
    <message>
        <source>Copied to the clipboard.</source>
        <translation>Copiado para a área de transferência.</translation>
    </message>
    <message>
        <source>This profile keeps its ledger in a team database: its administrator backs it up (with pg_dump), not this desktop.</source>
        <translation>Este perfil guarda o registro de operações em um banco de dados da equipe: a cópia de segurança é feita pelo administrador desse banco (com o pg_dump), não por este computador.</translation>
    </message>
    <message>
        <source>Backing up the ledger…</source>
        <translation>Copiando o registro de operações…</translation>
    </message>
    <message>
        <source>The ledger was not backed up: %1</source>
        <translation>A cópia de segurança não foi feita: %1</translation>
    </message>
    <message>
        <source>Ledger backed up to %1</source>
        <translation>Cópia de segurança do registro de operações salva em %1</translation>
    </message>
    <message>
        <source>Back up ledger</source>
        <translation>Cópia de segurança do registro de operações</translation>
    </message>
</context>
<context>
    <name>TeamReceiverDialog</name>
    <message>
        <source>Use the team&apos;s receiver</source>
        <translation>Usar o receptor da equipe</translation>
    </message>
    <message>
        <source>Points every webhook of both APIs at the team&apos;s webhook receiver: each Pix key, recurrences (webhookrec) and recurring charges (webhookcobr) on the QR Codes API, and the four event types of the Accounts API, which carry the secret. The receiver stores what the bank notifies in the team database and every desktop sees it at once.</source>
        <translation>Aponta todos os webhooks das duas APIs para o receptor de webhooks da equipe: cada chave Pix, recorrências (webhookrec) e cobranças recorrentes (webhookcobr) na API de QR Codes, e os quatro tipos de evento da API de Contas, que levam o segredo. O receptor grava no banco da equipe o que o banco notifica, e todos os computadores veem na hora.</translation>
    </message>
    <message>
        <source>The receiver&apos;s Accounts webhook secret (from its configuration file). It goes to the bank only, in the header below, and is never kept by this app: type it each time.</source>
        <translation>O segredo dos webhooks da API de Contas do receptor (do arquivo de configuração dele). Vai apenas para o banco, no cabeçalho abaixo, e nunca é guardado por este aplicativo: digite-o a cada vez.</translation>
    </message>
    <message>
        <source>Receiver URL</source>
        <translation>URL do receptor</translation>
    </message>
    <message>
        <source>Secret</source>
        <translation>Segredo</translation>
    </message>
    <message>
        <source>Header</source>
        <translation>Cabeçalho</translation>
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
        <source>State</source>
        <translation>Situação</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Register all webhooks</source>
        <translation>Cadastrar todos os webhooks</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fechar</translation>
    </message>
    <message>
        <source>A receiver is running: it reported %1 s ago.</source>
        <translation>Há um receptor em funcionamento: ele deu sinal há %1 s.</translation>
    </message>
    <message>
        <source>No receiver has reported to the team database yet: type the public address its administrator gave you. Until one runs, the app keeps asking the bank.</source>
        <translation>Nenhum receptor deu sinal ao banco da equipe ainda: digite o endereço público informado pelo administrador dele. Até um funcionar, o aplicativo continua consultando o banco.</translation>
    </message>
    <message>
        <source>The receiver has been silent for a while: check it is running. You may still register its address.</source>
        <translation>O receptor está em silêncio há algum tempo: verifique se está funcionando. Ainda assim é possível cadastrar o endereço dele.</translation>
    </message>
    <message>
        <source>The team database cannot be reached: the receiver&apos;s address is unknown.</source>
        <translation>O banco da equipe está inacessível: o endereço do receptor é desconhecido.</translation>
    </message>
    <message>
        <source>Looking for the team&apos;s receiver…</source>
        <translation>Procurando o receptor da equipe…</translation>
    </message>
    <message>
        <source>Enter the receiver&apos;s public HTTPS address.</source>
        <translation>Informe o endereço HTTPS público do receptor.</translation>
    </message>
    <message>
        <source>The bank will post to %1/pix, /rec, /cobr, /transfer, …</source>
        <translation>O banco vai enviar para %1/pix, /rec, /cobr, /transfer, …</translation>
    </message>
    <message>
        <source>Registering the webhooks…</source>
        <translation>Cadastrando os webhooks…</translation>
    </message>
    <message>
        <source>Nothing was registered.</source>
        <translation>Nada foi cadastrado.</translation>
    </message>
    <message>
        <source>Registered</source>
        <translation>Cadastrado</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Falhou</translation>
    </message>
    <message>
        <source>All %1 webhooks point at the receiver.</source>
        <translation>Todos os %1 webhooks apontam para o receptor.</translation>
    </message>
    <message>
        <source>%1 of %2 webhooks point at the receiver; the others were refused (below).</source>
        <translation>%1 de %2 webhooks apontam para o receptor; os outros foram recusados (abaixo).</translation>
    </message>
</context>
<context>
    <name>TeamStatusLabel</name>
    <message>
        <source>Team database: live</source>
        <translation>Banco da equipe: ao vivo</translation>
    </message>
    <message>
        <source>Team: live</source>
        <translation>Equipe: ao vivo</translation>
    </message>
    <message>
        <source>Team database: connecting…</source>
        <translation>Banco da equipe: conectando…</translation>
    </message>
    <message>
        <source>Team: connecting…</source>
        <translation>Equipe: conectando…</translation>
    </message>
    <message>
        <source>Team database offline: %1</source>
        <translation>Banco da equipe fora do ar: %1</translation>
    </message>
    <message>
        <source>not reachable</source>
        <translation>inacessível</translation>
    </message>
    <message>
        <source>Team: offline</source>
        <translation>Equipe: fora do ar</translation>
    </message>
    <message>
        <source>What is on screen stays; nothing is sent until the database is back. The app reconnects by itself.</source>
        <translation>O que está na tela continua; nada é enviado até o banco voltar. O aplicativo se reconecta sozinho.</translation>
    </message>
    <message>
        <source>last change %1 s ago</source>
        <translation>última mudança há %1 s</translation>
    </message>
    <message>
        <source>last change %1 min ago</source>
        <translation>última mudança há %1 min</translation>
    </message>
    <message>
        <source>last change at %1</source>
        <translation>última mudança às %1</translation>
    </message>
</context>
<context>
    <name>TickingLabel</name>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <source>%1 d</source>
        <translation>%1 d</translation>
    </message>
</context>
<context>
    <name>Times</name>
    <message>
        <source>%1 (Brasília)</source>
        <translation>%1 (horário de Brasília)</translation>
    </message>
</context>
<context>
    <name>UnconfirmedBanner</name>
    <message>
        <source>Dismiss</source>
        <translation>Dispensar</translation>
    </message>
    <message>
        <source>%1 payment(s) not confirmed by the bank wait for your decision.</source>
        <translation>%1 pagamento(s) não confirmado(s) pelo banco aguardam sua decisão.</translation>
    </message>
    <message>
        <source>%1 payment(s) not confirmed by the bank yet: checking with the bank…</source>
        <translation>%1 pagamento(s) ainda não confirmado(s) pelo banco: consultando o banco…</translation>
    </message>
    <message>
        <source>Not confirmed by the bank since %1 — %2 to %3</source>
        <translation>Não confirmado pelo banco desde %1 — %2 para %3</translation>
    </message>
    <message>
        <source>Checking with the bank since %1 — %2 to %3</source>
        <translation>Consultando o banco desde %1 — %2 para %3</translation>
    </message>
    <message>
        <source>Send now…</source>
        <translation>Enviar agora…</translation>
    </message>
    <message>
        <source>Cancel payment…</source>
        <translation>Cancelar pagamento…</translation>
    </message>
    <message>
        <source>A payment held here is not sent again by itself: the bank may have forgotten it after some time, and someone may have paid it another way meanwhile. Check the bank&apos;s statement, then send it now or cancel it.</source>
        <translation>Um pagamento retido aqui não é reenviado sozinho: o banco pode tê-lo esquecido depois de algum tempo, e alguém pode tê-lo pago de outra forma nesse meio-tempo. Confira o extrato do banco e então envie agora ou cancele.</translation>
    </message>
    <message>
        <source>Payee: %1
Amount: %2
First sent: %3 (Brasília)</source>
        <translation>Favorecido: %1
Valor: %2
Primeiro envio: %3 (Brasília)</translation>
    </message>
    <message>
        <source>Not now</source>
        <translation>Agora não</translation>
    </message>
    <message>
        <source>Send the payment now</source>
        <translation>Enviar o pagamento agora</translation>
    </message>
    <message>
        <source>The bank has no record of this payment. Send it now, with the same identification (the bank refuses it if it has it after all)?</source>
        <translation>O banco não tem registro deste pagamento. Enviá-lo agora, com a mesma identificação (o banco o recusa se, afinal, já o tiver)?</translation>
    </message>
    <message>
        <source>Send %1 now</source>
        <translation>Enviar %1 agora</translation>
    </message>
    <message>
        <source>Cancel the payment</source>
        <translation>Cancelar o pagamento</translation>
    </message>
    <message>
        <source>Cancel this payment? It will never be sent. The bank is asked first: if it has the payment after all, it is followed as paid instead.</source>
        <translation>Cancelar este pagamento? Ele nunca será enviado. O banco é consultado antes: se, afinal, tiver o pagamento, ele passa a ser acompanhado como pago.</translation>
    </message>
    <message>
        <source>%1 to %2: accepted by the bank (%3).</source>
        <translation>%1 para %2: aceito pelo banco (%3).</translation>
    </message>
    <message>
        <source>%1 to %2: cancelled, it will not be sent.</source>
        <translation>%1 para %2: cancelado, não será enviado.</translation>
    </message>
    <message>
        <source>%1 to %2: refused by the bank.</source>
        <translation>%1 para %2: recusado pelo banco.</translation>
    </message>
    <message>
        <source>%1 to %2: still not confirmed by the bank.</source>
        <translation>%1 para %2: ainda não confirmado pelo banco.</translation>
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
        <source>Enter the password of the team database (%1).</source>
        <translation>Informe a senha do banco de dados da equipe (%1).</translation>
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
        <source>Enter the password of the team database.</source>
        <translation>Informe a senha do banco de dados da equipe.</translation>
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
        <source>Team database</source>
        <translation>Banco de dados da equipe</translation>
    </message>
    <message>
        <source>Database</source>
        <translation>Banco de dados</translation>
    </message>
    <message>
        <source>Your own login&apos;s password; used for this session only, never stored.</source>
        <translation>A senha do seu próprio login; usada só nesta sessão, nunca guardada.</translation>
    </message>
    <message>
        <source>Not in the system keyring: used for this session only.</source>
        <translation>Não está no chaveiro do sistema: usada só nesta sessão.</translation>
    </message>
    <message>
        <source>Team database password</source>
        <translation>Senha do banco de dados da equipe</translation>
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
    <name>WebhookDialog</name>
    <message>
        <source>Pix received on a charge (per key)</source>
        <translation>Pix recebido em cobrança (por chave)</translation>
    </message>
    <message>
        <source>Pix Automático recurrences (webhookrec)</source>
        <translation>Recorrências do Pix Automático (webhookrec)</translation>
    </message>
    <message>
        <source>Recurring charges (webhookcobr)</source>
        <translation>Cobranças recorrentes (webhookcobr)</translation>
    </message>
    <message>
        <source>Our Pix changed status (transfer)</source>
        <translation>Nosso Pix mudou de situação (transfer)</translation>
    </message>
    <message>
        <source>Pix credited to the account (receive)</source>
        <translation>Pix creditado na conta (receive)</translation>
    </message>
    <message>
        <source>Refund credited (refund)</source>
        <translation>Devolução creditada (refund)</translation>
    </message>
    <message>
        <source>Our Pix failed (cashout)</source>
        <translation>Nosso Pix falhou (cashout)</translation>
    </message>
    <message>
        <source>Webhook: %1</source>
        <translation>Webhook: %1</translation>
    </message>
    <message>
        <source>QR Codes API: the bank posts to this URL followed by /%1. Only the URL can be set here.</source>
        <translation>API de QR Codes: o banco envia para esta URL seguida de /%1. Aqui só é possível definir a URL.</translation>
    </message>
    <message>
        <source>Accounts API: the bank posts to this URL as is, with the headers below.</source>
        <translation>API de Contas: o banco envia para esta URL exatamente como está, com os cabeçalhos abaixo.</translation>
    </message>
    <message>
        <source>Pix key</source>
        <translation>Chave Pix</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>Send notifications</source>
        <translation>Enviar notificações</translation>
    </message>
    <message>
        <source>who the bank warns when deliveries fail</source>
        <translation>quem o banco avisa quando as entregas falham</translation>
    </message>
    <message>
        <source>Pause after repeated failures</source>
        <translation>Pausar após falhas repetidas</translation>
    </message>
    <message>
        <source>Enabled</source>
        <translation>Ativo</translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation>E-mail</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>Método</translation>
    </message>
    <message>
        <source>Pause on fail</source>
        <translation>Pausar em falha</translation>
    </message>
    <message>
        <source>Headers sent with each notification</source>
        <translation>Cabeçalhos enviados com cada notificação</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nome</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>Header values may be secrets: they go to the bank only, are never kept by this app nor read back. When replacing a webhook, type them again.</source>
        <translation>Os valores dos cabeçalhos podem ser segredos: vão apenas para o banco, nunca são guardados por este aplicativo nem lidos de volta. Ao substituir um webhook, digite-os novamente.</translation>
    </message>
    <message>
        <source>Add header</source>
        <translation>Adicionar cabeçalho</translation>
    </message>
    <message>
        <source>Remove header</source>
        <translation>Remover cabeçalho</translation>
    </message>
    <message>
        <source>Replace</source>
        <translation>Substituir</translation>
    </message>
    <message>
        <source>Register</source>
        <translation>Cadastrar</translation>
    </message>
    <message>
        <source>Remove…</source>
        <translation>Remover…</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fechar</translation>
    </message>
    <message>
        <source>Enter the HTTPS address of your receiver.</source>
        <translation>Informe o endereço HTTPS do seu recebedor.</translation>
    </message>
    <message>
        <source>HTTPS address: OK.</source>
        <translation>Endereço HTTPS: OK.</translation>
    </message>
    <message>
        <source>Remove the webhook</source>
        <translation>Remover o webhook</translation>
    </message>
    <message>
        <source>Stop notifications to %1? The bank forgets this webhook.</source>
        <translation>Interromper as notificações para %1? O banco descarta este webhook.</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Remover</translation>
    </message>
    <message>
        <source>Keep</source>
        <translation>Manter</translation>
    </message>
</context>
<context>
    <name>WebhooksPanel</name>
    <message>
        <source>Where the bank notifies the company: per Pix key and for recurrences on the QR Codes API, per event type on the Accounts API. Only HTTPS addresses are accepted. Double-click a row to change it.</source>
        <translation>Onde o banco notifica a empresa: por chave Pix e para recorrências na API de QR Codes, por tipo de evento na API de Contas. Somente endereços HTTPS são aceitos. Dê um duplo clique em uma linha para alterá-la.</translation>
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
        <source>API</source>
        <translation>API</translation>
    </message>
    <message>
        <source>Enabled</source>
        <translation>Ativo</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>Método</translation>
    </message>
    <message>
        <source>Pause on fail</source>
        <translation>Pausar em falha</translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation>E-mail</translation>
    </message>
    <message>
        <source>Headers</source>
        <translation>Cabeçalhos</translation>
    </message>
    <message>
        <source>Check webhooks</source>
        <translation>Verificar webhooks</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>Editar…</translation>
    </message>
    <message>
        <source>Use the team&apos;s receiver…</source>
        <translation>Usar o receptor da equipe…</translation>
    </message>
    <message>
        <source>Register the team&apos;s webhook receiver for every Pix key and event type</source>
        <translation>Cadastrar o receptor de webhooks da equipe para cada chave Pix e tipo de evento</translation>
    </message>
    <message>
        <source>Notifications: polling. This profile keeps its ledger on this computer, and the bank can only notify a webhook receiver that writes into a team database (a desktop cannot be reached from the internet). The app asks the bank for each payment&apos;s status, as it always has.</source>
        <translation>Notificações: consultando o banco. Este perfil guarda o livro-razão neste computador, e o banco só consegue notificar um receptor de webhooks que grave em um banco da equipe (um computador de mesa não é alcançável pela internet). O aplicativo consulta o banco sobre a situação de cada pagamento, como sempre fez.</translation>
    </message>
    <message>
        <source>Team database: the team&apos;s webhook receiver writes what the bank notifies into it, and every desktop sees it at once. The button below points every webhook at it.</source>
        <translation>Banco da equipe: o receptor de webhooks da equipe grava nele o que o banco notifica, e todos os computadores veem na hora. O botão abaixo aponta todos os webhooks para ele.</translation>
    </message>
    <message>
        <source>The bank posts to %1</source>
        <translation>O banco envia para %1</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>sim</translation>
    </message>
    <message>
        <source>no</source>
        <translation>não</translation>
    </message>
    <message>
        <source>(not registered)</source>
        <translation>(não cadastrado)</translation>
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
        <source>Set by your IT department: the sandbox bank is turned off on this computer.</source>
        <translation>Definido pelo seu departamento de TI: o banco sandbox está desativado neste computador.</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Sair</translation>
    </message>
</context>
<context>
    <name>widget</name>
    <message>
        <source>Batch %1: %2 charge(s) — %3</source>
        <translation>Lote %1: %2 cobrança(s) — %3</translation>
    </message>
    <message>
        <source>The bank refused %1 charge(s): their problem is shown on their line.</source>
        <translation>O banco recusou %1 cobrança(s): o problema de cada uma aparece na respectiva linha.</translation>
    </message>
</context>
</TS>
