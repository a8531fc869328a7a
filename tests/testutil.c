/* testutil.c — placeholder */
