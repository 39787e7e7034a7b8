#include "GroveSignals.h"
#include <signal.h>
#include <string.h>

static volatile sig_atomic_t caught = 0;

static void on_signal(int number) { caught = number; }

static const int handled[] = { SIGINT, SIGTERM, SIGHUP };

void grove_catch_signals(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    caught = 0;
    for (unsigned i = 0; i < sizeof handled / sizeof handled[0]; i++) sigaction(handled[i], &action, 0);
}

int grove_caught_signal(void) { return caught; }

void grove_default_signals(void) {
    for (unsigned i = 0; i < sizeof handled / sizeof handled[0]; i++) signal(handled[i], SIG_DFL);
}
