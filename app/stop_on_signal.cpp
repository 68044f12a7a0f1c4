#include "app/stop_on_signal.h"

#include <semaphore.h>
#include <unistd.h>

#include <atomic>
#include <csignal>

#include "core/util/interrupt.h"

namespace ipt::app {

namespace {

// The handler only does async-signal-safe things: an atomic store, sem_post, and on a second
// signal, restoring the default action and raising it again.
sem_t g_wake;
std::atomic<int> g_signals{0};
std::atomic<bool> g_closing{false};
struct sigaction g_old_int, g_old_term;

void on_signal(int sig) {
  if (g_signals.fetch_add(1) > 0) {
    signal(sig, SIG_DFL);
    raise(sig);
    return;
  }
  request_interrupt();
  sem_post(&g_wake);
}

}  // namespace

StopOnSignal::StopOnSignal(python::Session& session) {
  sem_init(&g_wake, 0, 0);
  g_signals = 0;
  g_closing = false;
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &g_old_int);
  sigaction(SIGTERM, &sa, &g_old_term);
  watcher_ = std::thread([&session] {
    while (sem_wait(&g_wake) != 0) {}
    if (g_closing) return;
    static const char msg[] = "\nstopping the program (Ctrl+C again ends it at once)\n";
    [[maybe_unused]] ssize_t n = write(STDERR_FILENO, msg, sizeof msg - 1);
    session.request_stop();
  });
}

StopOnSignal::~StopOnSignal() {
  sigaction(SIGINT, &g_old_int, nullptr);
  sigaction(SIGTERM, &g_old_term, nullptr);
  g_closing = true;
  sem_post(&g_wake);
  watcher_.join();
  sem_destroy(&g_wake);
}

}  // namespace ipt::app
