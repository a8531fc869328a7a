/* cfg.c — placeholder until written */
