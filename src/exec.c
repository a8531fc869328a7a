/* exec.c — placeholder until written */
