/* ptx_parser.c — placeholder until written */
