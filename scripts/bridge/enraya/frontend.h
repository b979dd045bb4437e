// tablero bridge (5-en-Raya Táctico, course 2025-26): the protocol front end (the subset of
// tablero's protocol.md a referee and a GUI need) around a student's `AgenteEstudiante`. Every
// `position` is replayed with the course's own `Tablero`, so a move tablero sends that the course
// rules refuse is reported, never hidden; the student's `think()` runs on its own thread, as in
// the simulator's threaded build, so `stop`, `isready` and the time limit (the agent's
// `interrumpir()`) work while it thinks.
#ifndef TABLERO_ENRAYA_FRONTEND_H
#define TABLERO_ENRAYA_FRONTEND_H

#include <cstdio>
#include <functional>
#include <istream>
#include <memory>
#include <string>

#include "course_api.h"

namespace enraya_bridge {

// The modes of the simulator's -p1/-p2 that build an AgenteEstudiante, in this order.
constexpr const char *MODE_NAMES[4] = {"aleatorio", "minimax", "inteligente", "status"};

// What the simulator's crearAgente passes to AgenteEstudiante's constructor.
struct AgentParams {
    int id = 1;              // the seat, 1 or 2
    int depth = 4;           // -d
    double seconds = 100.0;  // -t
    int heuristic = 1;       // -id1 / -id2
    int mode = 2;            // index into MODE_NAMES
    bool operator==(const AgentParams &o) const {
        return id == o.id && depth == o.depth && seconds == o.seconds && heuristic == o.heuristic && mode == o.mode;
    }
};

struct Hooks {
    // Builds the student's agent (main.cpp: `new AgenteEstudiante(id, depth, seconds, heuristic, mode)`).
    std::function<std::unique_ptr<Agente>(const AgentParams &)> make_agent;
    std::string engine_name = "course AgenteEstudiante (tablero bridge)";
    // Set while the student's think() runs (the crash handler says whose code crashed).
    volatile int *in_think = nullptr;
    // Called first on the thread that runs think() (main.cpp gives it an alternate signal stack,
    // so a student's runaway recursion is reported, not silent).
    std::function<void()> on_thread_start;
};

// Runs the protocol loop until `quit` or end of input; protocol lines go to `out` only.
int run(std::istream &in, std::FILE *out, const Hooks &hooks);

}  // namespace enraya_bridge

#endif
