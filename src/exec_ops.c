/* exec_ops.c — placeholder until written */
