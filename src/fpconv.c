/* fpconv.c — placeholder until written */
