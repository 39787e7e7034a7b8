#ifndef GROVE_SIGNALS_H
#define GROVE_SIGNALS_H

/// Catches SIGINT, SIGTERM and SIGHUP into a flag instead of dying (no SA_RESTART: a poll or sleep
/// in progress returns early). A signal handler may only set such a flag; the code that waits reads
/// it with `grove_caught_signal` and does the rest outside the handler.
void grove_catch_signals(void);

/// The last signal caught since `grove_catch_signals`, or 0.
int grove_caught_signal(void);

/// Back to the default actions (a program run next must get its signals as usual).
void grove_default_signals(void);

#endif
