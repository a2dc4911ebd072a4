"""Pure values and rules: money, documents, Pix keys, identifiers, BR Code, boleto lines,
business days. No I/O and no Qt here."""
