/* manifest.c — placeholder until written */
