/* module.c — placeholder until written */
