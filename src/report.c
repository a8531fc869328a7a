/* report.c — placeholder until written */
