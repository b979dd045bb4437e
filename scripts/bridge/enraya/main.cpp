// tablero bridge (5-en-Raya Táctico): entry point of the bridged engine. Protocol lines leave on
// the original stdout; everything the course core and the student's code print (cout, printf)
// goes to stderr, which referees only log, so the protocol stream stays clean. The student's
// agent is built exactly as the simulator's crearAgente builds it:
// `AgenteEstudiante(id, profundidad, tiempoMax, heuristica, modo)`.
//
// A crash (a signal such as SIGSEGV) prints one `info string error: …` line on the protocol
// stream, saying whether the student's think() was running, and ends the engine with that
// signal, as the simulator would end: a referee scores the game as lost by crash.
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <vector>

#include "AgenteEstudiante.hpp"
#include "frontend.h"

namespace {

int g_proto_fd = -1;
volatile int g_in_think = 0;

// Async-signal-safe: only write() and fixed buffers.
void append(char *buf, std::size_t &len, std::size_t cap, const char *s) {
    while (*s && len + 1 < cap) buf[len++] = *s++;
}

extern "C" void on_crash(int sig) {
    const char *name = sig == SIGSEGV   ? "SIGSEGV"
                       : sig == SIGBUS  ? "SIGBUS"
                       : sig == SIGFPE  ? "SIGFPE"
                       : sig == SIGILL  ? "SIGILL"
                       : sig == SIGABRT ? "SIGABRT"
                                        : "a signal";
    char num[12];
    int n = sig, k = 0;
    char rev[12];
    do {
        rev[k++] = static_cast<char>('0' + n % 10);
        n /= 10;
    } while (n && k < 11);
    for (int i = 0; i < k; i++) num[i] = rev[k - 1 - i];
    num[k] = 0;
    char buf[256];
    std::size_t len = 0;
    append(buf, len, sizeof buf, "info string error: the engine crashed (signal ");
    append(buf, len, sizeof buf, num);
    append(buf, len, sizeof buf, ", ");
    append(buf, len, sizeof buf, name);
    append(buf, len, sizeof buf,
           g_in_think ? ") while the player's think() ran; the engine stops\n" : "); the engine stops\n");
    if (g_proto_fd >= 0) {
        ssize_t w = write(g_proto_fd, buf, len);
        (void)w;
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

// Each thread that may crash gets its own alternate stack, so that a stack overflow (runaway
// recursion in a search) still reaches on_crash.
void alternate_stack() {
    static thread_local std::vector<char> stack(1 << 16);
    stack_t ss;
    std::memset(&ss, 0, sizeof ss);
    ss.ss_sp = stack.data();
    ss.ss_size = stack.size();
    sigaltstack(&ss, nullptr);
}

}  // namespace

int main() {
    int proto_fd = dup(1);
    std::FILE *proto = proto_fd >= 0 ? fdopen(proto_fd, "w") : nullptr;
    if (!proto || dup2(2, 1) < 0) {
        std::fprintf(stderr, "tablero bridge: cannot set up the protocol stream\n");
        return 1;
    }
    g_proto_fd = proto_fd;
    signal(SIGPIPE, SIG_IGN);
    alternate_stack();
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_crash;
    sa.sa_flags = SA_ONSTACK;
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(sig, &sa, nullptr);

    enraya_bridge::Hooks hooks;
    hooks.make_agent = [](const enraya_bridge::AgentParams &p) -> std::unique_ptr<Agente> {
        AgenteEstudiante::ModoJuego mode = p.mode == 0   ? AgenteEstudiante::ModoJuego::ALEATORIO
                                           : p.mode == 1 ? AgenteEstudiante::ModoJuego::MINIMAX
                                           : p.mode == 3 ? AgenteEstudiante::ModoJuego::STATUS
                                                         : AgenteEstudiante::ModoJuego::INTELIGENTE;
        return std::unique_ptr<Agente>(new AgenteEstudiante(p.id, p.depth, p.seconds, p.heuristic, mode));
    };
    hooks.in_think = &g_in_think;
    hooks.on_thread_start = alternate_stack;
    int rc = enraya_bridge::run(std::cin, proto, hooks);
    // The input reader may still be blocked in a read of stdin, holding its lock: leave without
    // running static destructors under it, and flush only the streams we write (fflush(NULL)
    // would wait for stdin's lock for ever).
    std::cout.flush();
    std::fflush(proto);
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(rc);
}
