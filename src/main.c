/* main.c — placeholder until the command line is written */
int main(void) { return 0; }
