/* ptx_lexer.c — placeholder until written */
