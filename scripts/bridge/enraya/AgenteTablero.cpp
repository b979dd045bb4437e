// tablero bridge (5-en-Raya Táctico): AgenteTablero, tablero inside the course simulator (see
// AgenteTablero.hpp). Written for tablero; no course code.
#include "AgenteTablero.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <vector>

#include "engine_process.h"
#include "notation.h"

namespace {

// Lines are awaited this long before tablero counts as gone (a search ends by `stop`).
const int SETUP_TIMEOUT_MS = 30000;

std::string env_or(const char *name, const std::string &fallback) {
    const char *v = std::getenv(name);
    return v && *v ? std::string(v) : fallback;
}

std::string joined(const std::vector<std::string> &v) {
    std::string s;
    for (const std::string &m : v) s += (s.empty() ? "" : " ") + m;
    return s.empty() ? "none" : s;
}

}  // namespace

// tiempoMax (-t) is the controller's business: at the limit it calls interrumpir().
AgenteTablero::AgenteTablero(int id, int profundidad, double /*tiempoMax*/)
    : id_(id), depth_(profundidad), engine_(new enraya::EngineProcess()) {}

AgenteTablero::~AgenteTablero() { engine_->stop_process(); }

void AgenteTablero::disagreement(const std::string &what) {
    disagreements_++;
    std::cerr << "AgenteTablero: RULE DISAGREEMENT: " << what << std::endl;
}

bool AgenteTablero::start_engine(const Tablero &t) {
    if (engine_->running() && rows_ == t.getFilas() && cols_ == t.getColumnas() && inarow_ == t.getNParaGanar()) {
        return true;
    }
    std::string command = env_or("TABLERO_CMD", "tablero"), err;
    if (!engine_->running() && !engine_->start(command, err)) {
        std::cerr << "AgenteTablero: cannot start '" << command << "': " << err << " (set TABLERO_CMD)" << std::endl;
        return false;
    }
    engine_->send("setoption name UCI_Variant value enraya");
    engine_->send("setoption name Rows value " + std::to_string(t.getFilas()));
    engine_->send("setoption name Columns value " + std::to_string(t.getColumnas()));
    engine_->send("setoption name InARow value " + std::to_string(t.getNParaGanar()));
    std::stringstream opts(env_or("TABLERO_OPTIONS", ""));
    std::string kv;
    while (std::getline(opts, kv, ';')) {
        std::size_t eq = kv.find('=');
        if (eq != std::string::npos) engine_->send("setoption name " + kv.substr(0, eq) + " value " + kv.substr(eq + 1));
    }
    engine_->send("isready");
    std::string line;
    while (engine_->read_line(line, SETUP_TIMEOUT_MS)) {
        if (line == "readyok") break;
        if (line.rfind("info string error", 0) == 0) std::cerr << "AgenteTablero: tablero says: " << line << std::endl;
    }
    if (line != "readyok") {
        std::cerr << "AgenteTablero: '" << command << "' did not answer isready (set TABLERO_CMD to a tablero binary)" << std::endl;
        engine_->stop_process();
        return false;
    }
    rows_ = t.getFilas();
    cols_ = t.getColumnas();
    inarow_ = t.getNParaGanar();
    return true;
}

std::pair<int, int> AgenteTablero::think(const Tablero &t) {
    std::vector<std::string> legal = enraya::legal_moves(t);
    // What the simulator can always take: the core's first legal placement.
    std::pair<int, int> fallback{-1, -1};
    auto children = t.getSucesoresConMovimientos();
    if (!children.empty()) fallback = children.front().second;
    if (!start_engine(t)) {
        std::cerr << "AgenteTablero: no engine; playing the core's first legal placement" << std::endl;
        return fallback;
    }
    std::string fen = enraya::fen(t);
    engine_->send("position fen " + fen);
    engine_->send("d");
    engine_->send("moves");
    engine_->send("isready");
    std::string line, tablero_fen;
    std::vector<std::string> tablero_moves;
    bool got_moves = false;
    while (engine_->read_line(line, SETUP_TIMEOUT_MS)) {
        if (line == "readyok") break;
        if (line.rfind("fen: ", 0) == 0) tablero_fen = line.substr(5);
        if (line == "moves" || line.rfind("moves ", 0) == 0) {
            got_moves = true;
            std::stringstream ss(line.substr(5));
            std::string m;
            while (ss >> m) tablero_moves.push_back(m);
        }
        if (line.rfind("info string error", 0) == 0) disagreement("tablero refused the position 'fen " + fen + "': " + line);
    }
    if (line != "readyok") {
        std::cerr << "AgenteTablero: tablero stopped answering; playing the core's first legal placement" << std::endl;
        engine_->stop_process();
        return fallback;
    }
    std::vector<std::string> a = legal, b = tablero_moves;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    if (tablero_fen != fen || !got_moves || a != b) {
        disagreement("course: fen " + fen + " moves " + joined(legal) + "; tablero: fen " + tablero_fen + " moves " +
                     joined(tablero_moves));
    }
    std::string go = env_or("TABLERO_GO", "go depth " + std::to_string(depth_ > 0 ? depth_ : 4));
    searching_ = true;
    engine_->send(go);
    std::string best;
    while (engine_->read_line(line, -1)) {
        if (line.rfind("info string error", 0) == 0) std::cerr << "AgenteTablero: tablero says: " << line << std::endl;
        if (line.rfind("bestmove", 0) == 0) {
            std::stringstream ss(line.substr(8));
            ss >> best;
            break;
        }
    }
    searching_ = false;
    if (best.empty()) {
        std::cerr << "AgenteTablero: tablero gave no bestmove; playing the core's first legal placement" << std::endl;
        engine_->stop_process();
        return fallback;
    }
    int f, c;
    if (!enraya::parse_cell(best, f, c) || std::find(legal.begin(), legal.end(), best) == legal.end()) {
        disagreement("tablero played '" + best + "' in fen " + fen + ", which the course core refuses (legal: " + joined(legal) +
                     "); the core's first legal placement is played instead");
        return fallback;
    }
    std::cout << "AgenteTablero (J" << id_ << "): tablero plays (" << f << ", " << c << ")" << std::endl;
    return {f, c};
}

void AgenteTablero::interrumpir() {
    // Called by the simulator's thread at its time limit while think() waits for bestmove.
    if (searching_) engine_->send("stop");
}
