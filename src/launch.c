/* launch.c — placeholder until written */
