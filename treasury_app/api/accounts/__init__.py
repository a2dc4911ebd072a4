"""Client and models of the Accounts API (Cash Out, balances, statement, boletos)."""
