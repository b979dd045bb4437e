// tablero bridge (5-en-Raya Táctico): the protocol front end (see frontend.h). Error lines follow
// protocol.md: exactly one `info string error: …` line per bad input, and a rejected command
// changes nothing (a rejected `position` leaves no position).
#include "frontend.h"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <fstream>
#include <mutex>
#include <thread>
#include <vector>

#include "engine_process.h"
#include "notation.h"
#include "protocol_text.h"

namespace enraya_bridge {

namespace {

using Clock = std::chrono::steady_clock;
using bridge_text::cut;
using bridge_text::lower;
using bridge_text::ms_since;
using bridge_text::parse_uint;
using bridge_text::Token;
using bridge_text::tokenize;

const int MAX_SIZE = 30;
const std::size_t MAX_WAITING = 1024;
// How often interrumpir() is called again after the limit or `stop` until think() returns: the
// course template's think() clears the flag when it starts, so a call that lands before that
// would be lost.
const int REINTERRUPT_MS = 100;

// What the reader thread and the search thread tell the protocol loop.
struct Event {
    enum Kind { Line, Eof, Done } kind;
    std::string text;
};

class Events {
public:
    void push(Event e) {
        {
            std::lock_guard<std::mutex> lock(m_);
            q_.push_back(std::move(e));
        }
        cv_.notify_one();
    }
    // Waits for an event until `until` (Clock::time_point::max(): no limit); false on timeout.
    bool pop(Event &e, Clock::time_point until) {
        std::unique_lock<std::mutex> lock(m_);
        if (until == Clock::time_point::max()) {
            cv_.wait(lock, [this] { return !q_.empty(); });
        } else if (!cv_.wait_until(lock, until, [this] { return !q_.empty(); })) {
            return false;
        }
        e = std::move(q_.front());
        q_.pop_front();
        return true;
    }

private:
    std::mutex m_;
    std::condition_variable cv_;
    std::deque<Event> q_;
};

bool competition_board(const Tablero &t) { return t.getFilas() == 9 && t.getColumnas() == 9 && t.getNParaGanar() == 5; }

// Why the core refuses a placement of the player to move at (f, c) (the checks of ponerPieza).
std::string why_refused(const Tablero &t, int f, int c) {
    if (f < 0 || f >= t.getFilas() || c < 0 || c >= t.getColumnas()) {
        return "off the " + std::to_string(t.getFilas()) + "x" + std::to_string(t.getColumnas()) + " board";
    }
    if (t.comprobarGanador() != 0) return "the game is over";
    if (t.getCelda(f, c) != 0) return "the cell is occupied";
    if (competition_board(t)) {
        if (!t.esVacio() && !t.tieneAdyacente(f, c)) return "no piece next to the cell (adjacency rule)";
        if ((f + c) % 3 != t.getFaseActual() % 3) {
            return "(f + c) mod 3 = " + std::to_string((f + c) % 3) + ", the phase needs " +
                   std::to_string(t.getFaseActual() % 3) + " (Trinity rule)";
        }
    }
    return "refused by the core's ponerPieza";
}

std::string join(const std::vector<std::string> &v, const char *sep) {
    std::string out;
    for (const std::string &s : v) out += (out.empty() ? "" : sep) + s;
    return out;
}

// A summary of a legal-move list for messages.
std::string legal_text(const std::vector<std::string> &v) {
    if (v.empty()) return "none (game over)";
    if (v.size() <= 12) return join(v, " ");
    return join(std::vector<std::string>(v.begin(), v.begin() + 12), " ") + " … (" + std::to_string(v.size()) + ")";
}

// The go command's limits.
struct GoLimits {
    long long depth = -1, nodes = -1, movetime = -1, wtime = -1, btime = -1, winc = 0, binc = 0, movestogo = -1;
    bool infinite = false;
};

bool parse_go(const std::vector<Token> &t, GoLimits &g, std::string &err) {
    for (std::size_t i = 1; i < t.size(); i++) {
        const std::string &w = t[i].text;
        if (w == "infinite") {
            g.infinite = true;
            continue;
        }
        if (w == "searchmoves") {
            err = "go searchmoves (character " + std::to_string(t[i].column) +
                  ") is not supported by the course bridge: the student's search chooses among all moves";
            return false;
        }
        long long *dest = w == "depth"      ? &g.depth
                          : w == "nodes"    ? &g.nodes
                          : w == "movetime" ? &g.movetime
                          : w == "wtime"    ? &g.wtime
                          : w == "btime"    ? &g.btime
                          : w == "winc"     ? &g.winc
                          : w == "binc"     ? &g.binc
                          : w == "movestogo" ? &g.movestogo
                                            : nullptr;
        if (!dest) {
            err = "go: unknown limit '" + cut(w) + "' (character " + std::to_string(t[i].column) +
                  "); expected depth, nodes, movetime, infinite, wtime, btime, winc, binc, movestogo";
            return false;
        }
        if (i + 1 >= t.size()) {
            err = "go: '" + w + "' needs a number (character " + std::to_string(t[i].column) + ")";
            return false;
        }
        long long v;
        if (!parse_uint(t[i + 1].text, v)) {
            err = "go " + w + " expects a non-negative integer, got '" + cut(t[i + 1].text) + "' (character " +
                  std::to_string(t[i + 1].column) + ")";
            return false;
        }
        if (w == "depth" && v == 0) {
            err = "go: depth must be at least 1";
            return false;
        }
        *dest = v;
        i++;
    }
    return true;
}

// One comparison of the course core's view of a position with tablero's.
struct View {
    std::string fen;
    std::vector<std::string> legal;
};

class Session {
public:
    Session(std::FILE *out, const Hooks &hooks, std::shared_ptr<Events> events)
        : out_(out), hooks_(hooks), events_(std::move(events)) {
        reset_game();
    }

    ~Session() {
        if (search_.worker.joinable()) search_.worker.join();
    }

    // The protocol loop; returns at `quit` or at the end of input.
    void loop() {
        bool eof = false;
        while (true) {
            Event e;
            if (!search_.active) {
                events_->pop(e, Clock::time_point::max());
            } else if (!events_->pop(e, search_wake())) {
                on_timer();
                continue;
            }
            if (e.kind == Event::Done) {
                search_.done = true;
                if (search_.infinite && !search_.stopped) continue;  // bestmove only after `stop`
                finish_search();
                if (quitting_) {
                    refuse_waiting();
                    return;
                }
                while (!search_.active && !waiting_.empty()) {
                    std::string next = waiting_.front();
                    waiting_.pop_front();
                    if (!handle(next)) {
                        refuse_waiting();
                        return;
                    }
                }
                if (eof && !search_.active) return;
            } else if (e.kind == Event::Eof) {
                eof = true;
                // End of input is `quit` after a finite search; an infinite one is stopped.
                if (search_.active && search_.infinite) stop_search();
                if (!search_.active) return;
            } else if (search_.active) {
                during_search(e.text);
                if (quitting_ && search_.done) {
                    finish_search();
                    refuse_waiting();
                    return;
                }
            } else if (!handle(e.text)) {
                return;
            }
        }
    }

private:
    std::FILE *out_;
    const Hooks &hooks_;
    std::shared_ptr<Events> events_;

    // Options.
    int rows_ = 9, cols_ = 9, inarow_ = 5;
    int depth_ = 4, heuristic_ = 1, mode_ = 2;
    long long time_limit_ms_ = 100000;
    std::unique_ptr<enraya::EngineProcess> checker_;

    // The position: its start (`startpos` or the five fields of a state string), the moves
    // played from it, and the course core's game after them.
    std::vector<std::string> base_;
    std::vector<std::string> moves_;
    std::unique_ptr<Tablero> game_;
    std::size_t checked_ = 0;  // positions of the game (plies 0..checked_-1) compared with tablero (CrossCheck)
    bool in_position_ = false;
    std::string refused_;
    double last_replay_ms_ = 0;

    // The agents of both seats, kept for the game as the simulator keeps them, rebuilt when
    // what their constructor takes changes.
    struct Seat {
        std::unique_ptr<Agente> agent;
        AgentParams params;
    } seats_[3];

    // The running search.
    struct Search {
        bool active = false, infinite = false, stopped = false, done = false, interrupted = false;
        bool timed = false;  // interrumpir() at `deadline` (the agent has a time limit)
        std::thread worker;
        std::unique_ptr<Tablero> board;  // the copy think() reads
        Agente *agent = nullptr;
        AgentParams params;
        Clock::time_point start, deadline, next_interrupt;
        double think_ms = 0;  // from the start of think() to its return
        std::pair<int, int> result{-1, -1};
        std::string exception;
    } search_;
    std::deque<std::string> waiting_;
    bool quitting_ = false;

    void say(const std::string &s) {
        std::fputs(s.c_str(), out_);
        std::fputc('\n', out_);
        std::fflush(out_);
    }
    // The player's own failure while thinking (an illegal or impossible move) is not a refused
    // command: it loses the game as an illegal move, and a match or class tournament goes on.
    void fault(const std::string &s) { say("info string player fault: " + s); }
    void error(const std::string &s) {
        if (!in_position_) {
            say("info string error: " + s);
            return;
        }
        // As in tablero: a refused position leaves no position, so that nothing searches the one
        // before it.
        refused_ = s.compare(0, 10, "position: ") == 0 ? s.substr(10) : s;
        say("info string error: " + s + "; no position until a legal 'position' or 'ucinewgame'");
    }
    bool no_position() {
        if (refused_.empty()) return false;
        error("no position: the last 'position' was refused (" + refused_ + "); send a legal 'position' or 'ucinewgame'");
        return true;
    }
    bool no_args(const std::vector<Token> &t) {
        if (t.size() > 1) {
            error("'" + t[0].text + "' takes no arguments, got '" + cut(t[1].text) + "' (character " +
                  std::to_string(t[1].column) + ")");
            return false;
        }
        return true;
    }

    // Returns false on quit.
    bool handle(const std::string &raw) {
        std::string line = raw;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.size() > 65536) {
            error("line too long (" + std::to_string(line.size()) + " bytes, the limit is 65536); ignored");
            return true;
        }
        std::vector<Token> t = tokenize(line);
        if (t.empty()) return true;
        const std::string &cmd = t[0].text;
        if (cmd == "quit") return false;
        if (cmd == "uci") {
            if (no_args(t)) cmd_uci();
        } else if (cmd == "isready") {
            if (no_args(t)) say("readyok");
        } else if (cmd == "ucinewgame") {
            if (no_args(t)) reset_game();
        } else if (cmd == "stop") {
            // No search runs (stop during a search is handled by during_search).
        } else if (cmd == "setoption") {
            cmd_setoption(t);
        } else if (cmd == "position") {
            refused_.clear();
            in_position_ = true;
            cmd_position(t);
            in_position_ = false;
        } else if (cmd == "go") {
            cmd_go(t);
        } else if (cmd == "d") {
            if (no_args(t) && !no_position()) cmd_d();
        } else if (cmd == "moves") {
            if (no_args(t) && !no_position()) say("moves" + moves_text());
        } else if (cmd == "help") {
            say("info string commands: uci isready ucinewgame setoption position go d moves stop quit");
        } else {
            error("unknown command '" + cut(cmd) + "' (character 1); 'help' lists the commands");
        }
        return true;
    }

    std::string moves_text() {
        std::string s;
        for (const std::string &m : enraya::legal_moves(*game_)) s += " " + m;
        return s;
    }

    void invalidate_agents() {
        for (Seat &s : seats_) s.agent.reset();
    }

    void reset_game() {
        refused_.clear();
        base_ = {"startpos"};
        moves_.clear();
        game_.reset(new Tablero(rows_, cols_, inarow_));
        checked_ = 0;
        invalidate_agents();
    }

    void cmd_uci() {
        say("id name " + hooks_.engine_name);
        say("id author the tablero developers (bridge); the agent's authors (AgenteEstudiante)");
        say("option name UCI_Variant type combo default enraya var enraya");
        say("option name Mode type combo default inteligente var aleatorio var minimax var inteligente var status");
        say("option name HeuristicId type spin default 1 min 0 max 1000000");
        say("option name Depth type spin default 4 min 1 max 64");
        say("option name TimeLimit type spin default 100000 min 1 max 86400000");
        say("option name Rows type spin default 9 min 1 max " + std::to_string(MAX_SIZE));
        say("option name Columns type spin default 9 min 1 max " + std::to_string(MAX_SIZE));
        say("option name InARow type spin default 5 min 1 max " + std::to_string(MAX_SIZE));
        say("option name CrossCheck type string default <empty>");
        say("uciok");
    }

    bool spin(const std::string &name, const std::string &value, bool has_value, long long lo, long long hi, long long &v) {
        if (!has_value || !parse_uint(value, v) || v < lo || v > hi) {
            error("setoption " + name + ": value '" + cut(value) + "' is outside " + std::to_string(lo) + "..=" +
                  std::to_string(hi));
            return false;
        }
        return true;
    }

    void cmd_setoption(const std::vector<Token> &t) {
        std::string name, value, err;
        bool has_value = false;
        if (!bridge_text::parse_setoption(t, name, value, has_value, err)) {
            error(err);
            return;
        }
        std::string key = lower(name);
        long long v;
        if (key == "uci_variant") {
            if (lower(value) != "enraya") {
                error("setoption UCI_Variant: unknown game '" + cut(value) + "' (the course bridge plays only enraya)");
                return;
            }
            reset_game();
        } else if (key == "mode") {
            std::string m = lower(value);
            for (int i = 0; i < 4; i++) {
                if (m == MODE_NAMES[i]) {
                    mode_ = i;
                    return;
                }
            }
            error("setoption Mode: unknown mode '" + cut(value) + "' (aleatorio, minimax, inteligente, status)");
        } else if (key == "heuristicid") {
            if (spin("HeuristicId", value, has_value, 0, 1000000, v)) heuristic_ = static_cast<int>(v);
        } else if (key == "depth") {
            if (spin("Depth", value, has_value, 1, 64, v)) depth_ = static_cast<int>(v);
        } else if (key == "timelimit") {
            if (spin("TimeLimit", value, has_value, 1, 86400000, v)) time_limit_ms_ = v;
        } else if (key == "rows" || key == "columns" || key == "inarow") {
            const char *shown = key == "rows" ? "Rows" : key == "columns" ? "Columns" : "InARow";
            if (!spin(shown, value, has_value, 1, MAX_SIZE, v)) return;
            int &dest = key == "rows" ? rows_ : key == "columns" ? cols_ : inarow_;
            dest = static_cast<int>(v);
            if (checker_) checker_->send("setoption name " + std::string(shown) + " value " + std::to_string(v));
            reset_game();
        } else if (key == "crosscheck") {
            set_checker(has_value ? value : "");
        } else {
            error("setoption: unknown option '" + cut(name) + "'; 'uci' lists the options");
        }
    }

    // CrossCheck: a tablero command that every position is also set up in.
    void set_checker(const std::string &command) {
        if (command.empty() || command == "<empty>") {
            checker_.reset();
            return;
        }
        std::unique_ptr<enraya::EngineProcess> p(new enraya::EngineProcess());
        std::string err;
        if (!p->start(command, err)) {
            error("setoption CrossCheck: cannot start '" + cut(command) + "': " + err);
            return;
        }
        p->send("setoption name UCI_Variant value enraya");
        p->send("setoption name Rows value " + std::to_string(rows_));
        p->send("setoption name Columns value " + std::to_string(cols_));
        p->send("setoption name InARow value " + std::to_string(inarow_));
        p->send("isready");
        std::string line, complaint;
        bool timed_out = false;
        while (p->read_line(line, 30000, &timed_out)) {
            if (line == "readyok") break;
            if (line.rfind("info string error: ", 0) == 0 && complaint.empty()) complaint = line;
        }
        if (line != "readyok") {
            error("setoption CrossCheck: '" + cut(command) + "' " +
                  (timed_out ? "did not answer isready within 30 s" : "exited before answering isready") +
                  " (the value is a tablero command, e.g. /usr/local/bin/tablero)");
            return;
        }
        if (!complaint.empty()) {
            error("setoption CrossCheck: '" + cut(command) + "' refused the game: " + complaint.substr(19));
            return;
        }
        checker_ = std::move(p);
        checked_ = 0;  // the next position compares the whole game
    }

    // tablero's view of `position <base> moves <moves[0..k)>` from the CrossCheck engine; false
    // with `err` set when it refuses it or does not answer.
    bool tablero_view(const std::vector<std::string> &base, const std::vector<std::string> &moves, std::size_t k,
                      View &v, std::string &err) {
        std::string pos = "position " + join(base, " ");
        if (k) {
            pos += " moves";
            for (std::size_t i = 0; i < k; i++) pos += " " + moves[i];
        }
        if (!checker_->send(pos) || !checker_->send("d") || !checker_->send("moves") || !checker_->send("isready")) {
            err = "the CrossCheck engine has gone";
            return false;
        }
        std::string line;
        bool timed_out = false, got_moves = false;
        while (checker_->read_line(line, 30000, &timed_out)) {
            if (line == "readyok") break;
            if (line.rfind("info string error: ", 0) == 0 && err.empty()) err = "tablero says: " + line.substr(19);
            if (line.rfind("fen: ", 0) == 0) v.fen = line.substr(5);
            if (line == "moves" || line.rfind("moves ", 0) == 0) {
                got_moves = true;
                std::vector<Token> t = tokenize(line);
                for (std::size_t i = 1; i < t.size(); i++) v.legal.push_back(t[i].text);
            }
        }
        if (line != "readyok") {
            err = timed_out ? "the CrossCheck engine did not answer within 30 s" : "the CrossCheck engine has gone";
            return false;
        }
        if (!err.empty()) return false;
        if (v.fen.empty() || !got_moves) {
            err = "the CrossCheck engine printed no 'fen:' or 'moves' line";
            return false;
        }
        return true;
    }

    // Compares the course's views of plies first_ply, first_ply + 1, … with tablero's; false
    // (with the error reported, both views shown) at the first difference.
    bool cross_check(const std::vector<std::string> &base, const std::vector<std::string> &moves, std::size_t first_ply,
                     const std::vector<View> &views) {
        for (std::size_t i = 0; i < views.size(); i++) {
            std::size_t k = first_ply + i;
            View tv;
            std::string err;
            std::string where = k == 0 ? "at the start" : "after move " + std::to_string(k) + " '" + cut(moves[k - 1]) + "'";
            if (!tablero_view(base, moves, k, tv, err)) {
                error("position: cross-check " + where + ": " + err + "; course: fen " + views[i].fen + " legal " +
                      legal_text(views[i].legal));
                return false;
            }
            std::vector<std::string> a = tv.legal, b = views[i].legal;
            std::sort(a.begin(), a.end());
            std::sort(b.begin(), b.end());
            if (tv.fen != views[i].fen || a != b) {
                error("position: rule disagreement " + where + " (cross-check): tablero: fen " + tv.fen + " legal " +
                      legal_text(tv.legal) + "; course: fen " + views[i].fen + " legal " + legal_text(views[i].legal));
                return false;
            }
        }
        return true;
    }

    // The core's game at `base` (startpos or a state string), or null with the error reported.
    std::unique_ptr<Tablero> start_of(const std::vector<std::string> &base) {
        if (base[0] == "startpos") return std::unique_ptr<Tablero>(new Tablero(rows_, cols_, inarow_));
        std::vector<std::string> fields(base.begin() + 1, base.end());
        enraya::State s;
        std::string err;
        if (!enraya::parse_state(fields, s, err)) {
            error("position fen: invalid state string: " + err);
            return nullptr;
        }
        if (s.rows != rows_ || s.cols != cols_) {
            error("position fen: invalid state string: the grid is " + std::to_string(s.rows) + "x" + std::to_string(s.cols) +
                  " but Rows and Columns are " + std::to_string(rows_) + "x" + std::to_string(cols_) +
                  " (set them first)");
            return nullptr;
        }
        // The course's own loader (the simulator's -file), from a board file in its format.
        const char *tmp = std::getenv("TMPDIR");
        std::string path = std::string(tmp && *tmp ? tmp : "/tmp") + "/tablero-enraya-board.XXXXXX";
        std::vector<char> name(path.begin(), path.end());
        name.push_back('\0');
        int fd = mkstemp(name.data());
        if (fd < 0) {
            error("position fen: cannot write a board file for the course's loader in " + std::string(tmp ? tmp : "/tmp"));
            return nullptr;
        }
        close(fd);
        {
            std::ofstream f(name.data());
            f << rows_ << " " << cols_ << " " << inarow_ << "\n" << s.phase << " " << s.player << " " << s.left << " " << s.turn << "\n";
            for (int r = 0; r < s.rows; r++) {
                for (int c = 0; c < s.cols; c++) f << s.cells[r * s.cols + c] << (c + 1 < s.cols ? " " : "\n");
            }
        }
        std::unique_ptr<Tablero> g(new Tablero(Tablero::cargarDesdeFichero(name.data())));
        unlink(name.data());
        // The core's view of what it loaded must be the state string it was given.
        std::string given = join(fields, " "), loaded = enraya::fen(*g);
        enraya::State back;
        std::vector<Token> lt = tokenize(loaded);
        std::vector<std::string> lf;
        for (const Token &x : lt) lf.push_back(x.text);
        if (!enraya::parse_state(lf, back, err) || back.cells != s.cells || back.player != s.player || back.left != s.left ||
            back.phase != s.phase || back.turn != s.turn || back.rows != s.rows || back.cols != s.cols) {
            error("position fen: the course core loaded '" + loaded + "' from '" + given + "' (cross-check)");
            return nullptr;
        }
        return g;
    }

    // Plays tablero move `m` in the core's game `g`; "" on success, else why not (rule
    // disagreements say so).
    static std::string play(Tablero &g, const std::string &m) {
        if (g.comprobarGanador() != 0) {
            return "comes after the end of the game in the course core (result " + enraya::result_text(g) +
                   "; rule disagreement: tablero still plays on)";
        }
        if (m == "pass") {
            if (g.tieneMovimientosValidos()) {
                return "is a pass, but the course core has placements for the player to move (" +
                       legal_text(enraya::legal_moves(g)) + "; rule disagreement)";
            }
            g.pasarTurno();
            return "";
        }
        int f, c;
        if (!enraya::parse_cell(m, f, c)) return ": bad move: expected 'f,c' (row,column from 0) or 'pass'";
        Tablero next = g;
        if (f >= g.getFilas() || c >= g.getColumnas() || !next.ponerPieza(f, c, g.getJugadorTurno())) {
            return "is illegal in the course core (" + why_refused(g, f, c) + "; rule disagreement, course fen " +
                   enraya::fen(g) + ")";
        }
        g = next;
        return "";
    }

    void cmd_position(const std::vector<Token> &t) {
        if (t.size() < 2) {
            error("position: expected 'startpos' or 'fen <state>' (character " + std::to_string(t[0].column + 8) + ")");
            return;
        }
        std::vector<std::string> base;
        std::size_t i = 2;
        if (t[1].text == "startpos") {
            base = {"startpos"};
        } else if (t[1].text == "fen") {
            base = {"fen"};
            while (i < t.size() && t[i].text != "moves") base.push_back(t[i++].text);
        } else {
            error("position: unknown start '" + cut(t[1].text) + "' for enraya (use 'startpos' or 'fen <state>')");
            return;
        }
        std::vector<std::string> moves;
        std::vector<int> cols;
        if (i < t.size()) {
            if (t[i].text != "moves") {
                error("position: expected 'moves', got '" + cut(t[i].text) + "' (character " + std::to_string(t[i].column) + ")");
                return;
            }
            for (i++; i < t.size(); i++) {
                moves.push_back(t[i].text);
                cols.push_back(t[i].column);
            }
        }
        Clock::time_point t0 = Clock::now();
        // A referee sends the whole game before every move; when it extends the game already
        // replayed (and, with CrossCheck, compared), only the new moves are played, on a copy: a
        // refused move changes nothing.
        bool extends = base == base_ && moves.size() >= moves_.size() && std::equal(moves_.begin(), moves_.end(), moves.begin());
        bool full = !extends || (checker_ && checked_ != moves_.size() + 1);
        std::unique_ptr<Tablero> g;
        std::size_t from = 0;
        if (full) {
            g = start_of(base);
            if (!g) return;
        } else {
            g.reset(new Tablero(*game_));
            from = moves_.size();
        }
        // The course's view after each new ply (views[i] is ply first_ply + i), for CrossCheck.
        std::vector<View> views;
        std::size_t first_ply = from == 0 ? 0 : from + 1;
        if (checker_ && from == 0) views.push_back({enraya::fen(*g), enraya::legal_moves(*g)});
        for (std::size_t k = from; k < moves.size(); k++) {
            std::string why = play(*g, moves[k]);
            if (!why.empty()) {
                error("position: move " + std::to_string(k + 1) + " '" + cut(moves[k]) + "' (character " +
                      std::to_string(cols[k]) + ")" + (why[0] == ':' ? "" : " ") + why);
                return;
            }
            if (checker_) views.push_back({enraya::fen(*g), enraya::legal_moves(*g)});
        }
        if (checker_ && !cross_check(base, moves, first_ply, views)) return;
        if (!extends) invalidate_agents();  // a new game: new agents, as the simulator starts one
        base_ = base;
        moves_ = moves;
        game_ = std::move(g);
        checked_ = checker_ ? moves_.size() + 1 : 0;
        last_replay_ms_ = ms_since(t0);
    }

    void cmd_go(const std::vector<Token> &t) {
        GoLimits lim;
        std::string err;
        if (!parse_go(t, lim, err)) {
            error(err);
            return;
        }
        if (no_position()) return;
        const Tablero &g = *game_;
        if (g.comprobarGanador() != 0) {
            say("bestmove (none)");
            return;
        }
        if (!g.tieneMovimientosValidos()) {
            // The course's controller passes for the player without asking the agent.
            say("info string no placement for the player to move: the course's controller passes without asking the agent");
            say("bestmove pass");
            return;
        }
        if (lim.nodes >= 0) say("info string go nodes ignored: the student's search has no node limit");
        int seat = g.getJugadorTurno() == 2 ? 2 : 1;
        AgentParams p;
        p.id = seat;
        p.depth = lim.depth > 0 ? static_cast<int>(std::min<long long>(lim.depth, 64)) : depth_;
        p.heuristic = heuristic_;
        p.mode = mode_;
        // The time limit: movetime, else a share of the mover's clock, else TimeLimit (the
        // simulator's -t); `go infinite`: none until `stop`.
        long long budget = -1;
        if (lim.movetime >= 0) budget = lim.movetime;
        long long clock = seat == 1 ? lim.wtime : lim.btime;
        if (clock >= 0) {
            long long inc = seat == 1 ? lim.winc : lim.binc;
            long long reserve = 10 + std::min<long long>(50, clock / 10);
            long long avail = std::max<long long>(1, clock - reserve);
            long long moves = lim.movestogo > 0 ? std::min<long long>(lim.movestogo, 60) : 20;
            long long share = std::min(avail / moves + inc * 3 / 4, avail * 2 / 5 + inc * 3 / 4);
            share = std::max<long long>(1, std::min(share, avail));
            budget = budget >= 0 ? std::min(budget, share) : share;
        }
        bool timed = !lim.infinite;
        if (budget < 0) budget = time_limit_ms_;
        p.seconds = lim.infinite ? 1e9 : budget / 1000.0;
        Seat &s = seats_[seat];
        if (!s.agent || !(s.params == p)) {
            s.agent = hooks_.make_agent(p);
            s.params = p;
        }
        start_search(s.agent.get(), p, g, lim.infinite, timed && s.agent->tieneLimiteDeTiempo(), budget);
    }

    void start_search(Agente *agent, const AgentParams &p, const Tablero &g, bool infinite, bool timed, long long budget_ms) {
        search_.active = true;
        search_.infinite = infinite;
        search_.stopped = search_.done = search_.interrupted = false;
        search_.timed = timed;
        search_.agent = agent;
        search_.params = p;
        search_.board.reset(new Tablero(g));
        search_.result = {-1, -1};
        search_.exception.clear();
        search_.start = Clock::now();
        search_.deadline = search_.start + std::chrono::milliseconds(budget_ms);
        const Tablero *board = search_.board.get();
        std::pair<int, int> *result = &search_.result;
        std::string *exception = &search_.exception;
        double *think_ms = &search_.think_ms;
        Clock::time_point start = search_.start;
        std::shared_ptr<Events> events = events_;
        const Hooks *hooks = &hooks_;
        search_.worker = std::thread([agent, board, result, exception, think_ms, start, events, hooks] {
            if (hooks->on_thread_start) hooks->on_thread_start();
            if (hooks->in_think) *hooks->in_think = 1;
            try {
                *result = agent->think(*board);
            } catch (const std::exception &e) {
                *exception = std::string("an exception: ") + e.what();
            } catch (...) {
                *exception = "an exception that is not a std::exception";
            }
            if (hooks->in_think) *hooks->in_think = 0;
            *think_ms = ms_since(start);
            events->push(Event{Event::Done, ""});
        });
    }

    Clock::time_point search_wake() const {
        if (search_.interrupted) return search_.next_interrupt;
        if (search_.timed) return search_.deadline;
        return Clock::time_point::max();
    }

    void interrupt_now() {
        if (search_.done) return;
        search_.agent->interrumpir();
        search_.interrupted = true;
        search_.next_interrupt = Clock::now() + std::chrono::milliseconds(REINTERRUPT_MS);
    }

    void on_timer() {
        if (!search_.interrupted) {
            say("info string time limit of " + std::to_string(static_cast<long long>(search_.params.seconds * 1000 + 0.5)) +
                " ms reached: interrumpir() called, as the simulator does; the move is what think() then returns");
        }
        interrupt_now();
    }

    void stop_search() {
        search_.stopped = true;
        if (search_.done) {
            finish_search();
            return;
        }
        interrupt_now();
    }

    void during_search(const std::string &raw) {
        std::string line = raw;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::vector<Token> t = tokenize(line);
        if (t.empty()) return;
        const std::string &cmd = t[0].text;
        if (cmd == "isready") {
            if (no_args(t)) say("readyok");
        } else if (cmd == "stop") {
            stop_search();
        } else if (cmd == "quit") {
            quitting_ = true;
            search_.stopped = true;
            if (!search_.done) interrupt_now();
        } else if (search_.infinite) {
            error("a search is running; send 'stop' first");
        } else if (waiting_.size() >= MAX_WAITING) {
            error("'" + cut(cmd) + "' ignored: " + std::to_string(MAX_WAITING) + " commands are already waiting for the search to finish");
        } else {
            waiting_.push_back(line);
        }
    }

    void refuse_waiting() {
        for (const std::string &w : waiting_) {
            say("info string error: quit: '" + cut(w) + "' was not carried out (it was waiting for the search to finish)");
        }
        waiting_.clear();
    }

    void finish_search() {
        if (search_.worker.joinable()) search_.worker.join();
        search_.active = false;
        double think_ms = search_.think_ms;
        if (!search_.exception.empty()) {
            say("info string error: the player's think() threw " + search_.exception +
                "; the engine stops (in the simulator the exception ends the program)");
            std::fflush(out_);
            std::_Exit(3);
        }
        int f = search_.result.first, c = search_.result.second;
        Clock::time_point t1 = Clock::now();
        std::string text = std::to_string(f) + "," + std::to_string(c);
        const Tablero &g = *game_;
        Tablero next = g;
        bool inside = f >= 0 && f < g.getFilas() && c >= 0 && c < g.getColumnas();
        if (!inside || !next.ponerPieza(f, c, g.getJugadorTurno())) {
            fault("the player's think() returned (" + std::to_string(f) + ", " + std::to_string(c) +
                  "), which the course core refuses (" + why_refused(g, f, c) + "); course fen " + enraya::fen(g) +
                  " legal " + legal_text(enraya::legal_moves(g)) +
                  (search_.interrupted ? "; think() was interrupted" : ""));
        }
        double convert_ms = ms_since(t1);
        char buf[240];
        std::snprintf(buf, sizeof buf, "info string bridge replay_ms %.3f think_ms %.3f convert_ms %.3f interrupted %d",
                      last_replay_ms_, think_ms, convert_ms, search_.interrupted ? 1 : 0);
        say(buf);
        say("info depth " + std::to_string(search_.params.depth) + " time " + std::to_string(static_cast<long long>(think_ms)));
        say("bestmove " + text);
    }

    void cmd_d() {
        const Tablero &g = *game_;
        std::vector<std::string> legal = enraya::legal_moves(g);
        say("fen: " + enraya::fen(g));
        say("course " + enraya::fen(g) + " legal=" + (legal.empty() ? std::string("-") : join(legal, ";")) +
            " over=" + (g.comprobarGanador() != 0 ? "1" : "0") + " result=" + enraya::result_text(g));
    }
};

}  // namespace

int run(std::istream &in, std::FILE *out, const Hooks &hooks) {
    std::shared_ptr<Events> events = std::make_shared<Events>();
    // The reader outlives run() when it returns first (blocked in a read): it only touches the
    // shared queue.
    std::thread reader([events, &in] {
        std::string line;
        while (std::getline(in, line)) events->push(Event{Event::Line, line});
        events->push(Event{Event::Eof, ""});
    });
    reader.detach();
    Session s(out, hooks, events);
    s.loop();
    return 0;
}

}  // namespace enraya_bridge
