// tablero bridge (Conecta-4 BOOM): the protocol front end (see frontend.h). Error lines follow
// protocol.md: exactly one `info string error: …` line per bad input, and a rejected command
// changes nothing.
#include "frontend.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

#include "course_api.h"
#include "protocol_text.h"

namespace boom_bridge {

namespace {

using Clock = std::chrono::steady_clock;
using bridge_text::cut;
using bridge_text::lower;
using bridge_text::ms_since;
using bridge_text::parse_uint;
using bridge_text::Token;
using bridge_text::tokenize;

// Course action numbers: Environment::ActionType PUT1..PUT7 = 0..6, BOOM = 7.
const int BOOM_ACTION = 7;
const int ACTIONS = 8;

// The course's legal actions in its own order (possible_actions: PUT1..PUT7, then BOOM); empty
// when the course calls the game over.
std::vector<int> legal_actions(const Environment &g) {
    std::vector<int> out;
    if (g.JuegoTerminado()) return out;
    bool act[ACTIONS];
    g.possible_actions(act);
    for (int a = 0; a < ACTIONS; a++) {
        if (act[a]) out.push_back(a);
    }
    return out;
}

bool course_legal(const Environment &g, int action) {
    std::vector<int> legal = legal_actions(g);
    return std::find(legal.begin(), legal.end(), action) != legal.end();
}

class Session {
public:
    Session(std::FILE *out, const Hooks &hooks) : out_(out), hooks_(hooks) { reset_game(); }

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
            // The player's Think() runs synchronously, so nothing can be running here.
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
        } else if (cmd == "help") {
            say("info string commands: uci isready ucinewgame setoption position go d stop quit");
        } else {
            error("unknown command '" + cut(cmd) + "' (character 1); 'help' lists the commands");
        }
        return true;
    }

private:
    std::FILE *out_;
    const Hooks &hooks_;
    std::unique_ptr<Environment> game_;
    std::vector<std::string> moves_;
    // One Player per seat for the whole game, as the simulator keeps them (a student's player
    // may keep state between moves).
    std::unique_ptr<Player> players_[3];
    bool warned_depth_ = false;
    double last_replay_ms_ = 0;

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
    // Refuses a command that needs a position after a refused one; true when refused.
    bool no_position() {
        if (refused_.empty()) return false;
        error("no position: the last 'position' was refused (" + refused_ +
              "); send a legal 'position' or 'ucinewgame'");
        return true;
    }
    bool in_position_ = false;
    std::string refused_;

    bool no_args(const std::vector<Token> &t) {
        if (t.size() > 1) {
            error("'" + t[0].text + "' takes no arguments, got '" + cut(t[1].text) + "' (character " +
                  std::to_string(t[1].column) + ")");
            return false;
        }
        return true;
    }

    void reset_game() {
        refused_.clear();
        moves_.clear();
        game_.reset(new Environment());
        players_[1].reset(new Player(1));
        players_[2].reset(new Player(2));
    }

    void cmd_uci() {
        say("id name " + hooks_.engine_name);
        say("id author the tablero developers (bridge); the player's authors (Player)");
        say("option name UCI_Variant type combo default connect4boom var connect4boom");
        if (hooks_.depth) {
            say("option name Depth type spin default " + std::to_string(*hooks_.depth) + " min 1 max 64");
        }
        say("option name Year type combo default " + hooks_.year + " var " + hooks_.year);
        say("uciok");
    }

    void cmd_setoption(const std::vector<Token> &t) {
        std::string name, value, err;
        bool has_value = false;
        if (!bridge_text::parse_setoption(t, name, value, has_value, err)) {
            error(err);
            return;
        }
        std::string key = lower(name);
        if (key == "uci_variant") {
            if (lower(value) != "connect4boom") {
                error("setoption UCI_Variant: unknown game '" + cut(value) +
                      "' (the course bridge plays only connect4boom)");
                return;
            }
            reset_game();
        } else if (key == "depth" && hooks_.depth) {
            long long v;
            if (!has_value || !parse_uint(value, v) || v < 1 || v > 64) {
                error("setoption Depth: value '" + cut(value) + "' is outside 1..=64");
                return;
            }
            *hooks_.depth = static_cast<int>(v);
        } else if (key == "year") {
            if (lower(value) != lower(hooks_.year)) {
                error("setoption Year: this player was built on the " + hooks_.year +
                      " simulator (build.sh --year) and cannot play '" + cut(value) + "'");
            }
        } else {
            error("setoption: unknown option '" + cut(name) + "'; 'uci' lists the options");
        }
    }

    // Replays `moves` from the start with the course core; on success installs the position.
    bool replay(const std::vector<std::string> &moves, const std::vector<int> &cols) {
        std::unique_ptr<Environment> g(new Environment());
        for (std::size_t i = 0; i < moves.size(); i++) {
            std::string where =
                "move " + std::to_string(i + 1) + " '" + cut(moves[i]) + "' (character " + std::to_string(cols[i]) + ")";
            if (g->JuegoTerminado()) {
                error("position: " + where +
                      " comes after the end of the game in the course simulator (rule disagreement: tablero still plays on)");
                return false;
            }
            int a;
            if (!parse_move(moves[i], a)) {
                error("position: " + where + ": bad move '" + cut(moves[i]) +
                      "': expected a column 1..7 or boom");
                return false;
            }
            if (!course_legal(*g, a)) {
                error("position: " + where + " is illegal in the course simulator (rule disagreement, course action " +
                      std::to_string(a) + ", player " + std::to_string(g->JugadorActivo()) +
                      " to move)");
                return false;
            }
            g->AcceptAction(static_cast<Environment::ActionType>(a));
            g->ChangePlayer();
        }
        // Same game continued (the referee resends it before every move): keep the players.
        bool same_game = moves.size() >= moves_.size() && std::equal(moves_.begin(), moves_.end(), moves.begin());
        if (!same_game) {
            players_[1].reset(new Player(1));
            players_[2].reset(new Player(2));
        }
        moves_ = moves;
        game_ = std::move(g);
        return true;
    }

    void cmd_position(const std::vector<Token> &t) {
        if (t.size() < 2) {
            error("position: expected 'startpos' or 'fen <state>' (character " + std::to_string(t[0].column + 8) + ")");
            return;
        }
        const std::string &base = t[1].text;
        if (base == "fen") {
            error("position fen: the course core cannot load a state string; use 'position startpos moves …'");
            return;
        }
        if (base != "startpos") {
            error("position: unknown start '" + cut(base) + "' for connect4boom (use 'startpos')");
            return;
        }
        std::vector<std::string> moves;
        std::vector<int> cols;
        if (t.size() > 2) {
            if (t[2].text != "moves") {
                error("position: expected 'moves', got '" + cut(t[2].text) + "' (character " + std::to_string(t[2].column) +
                      ")");
                return;
            }
            for (std::size_t i = 3; i < t.size(); i++) {
                moves.push_back(t[i].text);
                cols.push_back(t[i].column);
            }
        }
        Clock::time_point t0 = Clock::now();
        if (replay(moves, cols)) last_replay_ms_ = ms_since(t0);
    }

    void cmd_go(const std::vector<Token> &t) {
        int depth = -1;
        std::string go_err;
        if (!bridge_text::parse_go(t, depth, go_err)) {
            error(go_err);
            return;
        }
        if (no_position()) return;
        if (game_->JuegoTerminado()) {
            say("bestmove (none)");
            return;
        }
        int saved = 0;
        if (depth > 0 && hooks_.depth) {
            saved = *hooks_.depth;
            *hooks_.depth = depth;
        } else if (depth > 0 && !warned_depth_) {
            warned_depth_ = true;
            say("info string go depth " + std::to_string(depth) +
                " ignored: the player's depth is fixed in its source (build.sh found no depth constant to expose)");
        }
        int seat = game_->JugadorActivo();
        Player &p = *players_[seat == 2 ? 2 : 1];
        // The player perceives a copy, as in the simulator: Think() cannot touch the replayed game.
        p.Perceive(*game_);
        Clock::time_point t0 = Clock::now();
        int action = static_cast<int>(p.Think());
        double think_ms = ms_since(t0);
        if (depth > 0 && hooks_.depth) *hooks_.depth = saved;
        Clock::time_point t1 = Clock::now();
        std::string text;
        bool ok = format_action(action, text);
        if (ok && !course_legal(*game_, action)) {
            fault("the player chose " + text + " (course action " + std::to_string(action) +
                  "), which the course core calls illegal");
        }
        double convert_ms = ms_since(t1);
        char buf[200];
        std::snprintf(buf, sizeof buf, "info string bridge replay_ms %.3f think_ms %.3f convert_ms %.3f",
                      last_replay_ms_, think_ms, convert_ms);
        say(buf);
        int d = hooks_.depth ? (depth > 0 ? depth : *hooks_.depth) : 0;
        if (d > 0) say("info depth " + std::to_string(d) + " time " + std::to_string(static_cast<long long>(think_ms)));
        if (!ok) {
            fault("the player's Think() returned action " + std::to_string(action) +
                  ", which is no course action (0..7 = PUT1..PUT7, BOOM)");
            say("bestmove (none)");
            return;
        }
        say("bestmove " + text);
    }

    // The course state in the fields of the course core traces (tests/golden/boom): the board
    // as tablero's state string, the legal actions in the core's order, game over and result,
    // bombs held, the turn counter and the bomb-now flag.
    void cmd_d() {
        const Environment &g = *game_;
        std::string rows;
        for (int r = 6; r >= 0; r--) {
            int empty = 0;
            for (int c = 0; c < 7; c++) {
                int v = g.See_Casilla(r, c);
                char ch = v == 1 ? 'x' : v == 2 ? 'o' : v == 4 ? 'X' : v == 5 ? 'O' : 0;
                if (v != 0 && ch == 0) ch = '?';
                if (ch == 0) {
                    empty++;
                    continue;
                }
                if (empty) rows += std::to_string(empty);
                empty = 0;
                rows += ch;
            }
            if (empty) rows += std::to_string(empty);
            if (r) rows += "/";
        }
        // The core's movement counter is private; every movement it accepted advanced it by one.
        std::string s = rows + " " + (g.JugadorActivo() == 1 ? "x" : "o") + " " + std::to_string(moves_.size() + 1);
        std::string legal;
        for (int a : legal_actions(g)) {
            std::string text;
            format_action(a, text);
            legal += (legal.empty() ? "" : ",") + text;
        }
        bool over = g.JuegoTerminado();
        int winner = over ? g.RevisarTablero() : 0;
        std::string result = !over ? "-" : winner == 1 ? "first" : winner == 2 ? "second" : "draw";
        s += " legal=" + (legal.empty() ? std::string("-") : legal);
        s += std::string(" over=") + (over ? "1" : "0") + " result=" + result;
        s += std::string(" bombs=") + (g.Have_BOOM(1) ? "1" : "0") + "," + (g.Have_BOOM(2) ? "1" : "0");
        s += " turn=" + std::to_string(g.N_Jugada());
        s += std::string(" bombnow=") + (g.Put_FichaBOOM_now() ? "1" : "0");
        say("course " + s);
    }
};

}  // namespace

bool format_action(int action, std::string &text) {
    if (action >= 0 && action < BOOM_ACTION) {
        text = std::to_string(action + 1);
        return true;
    }
    if (action == BOOM_ACTION) {
        text = "boom";
        return true;
    }
    return false;
}

bool parse_move(const std::string &text, int &action) {
    if (text.size() == 1 && text[0] >= '1' && text[0] <= '7') {
        action = text[0] - '1';
        return true;
    }
    if (lower(text) == "boom") {
        action = BOOM_ACTION;
        return true;
    }
    return false;
}

int run(std::istream &in, std::FILE *out, const Hooks &hooks) {
    Session s(out, hooks);
    std::string line;
    while (std::getline(in, line)) {
        if (!s.handle(line)) break;
    }
    return 0;
}

}  // namespace boom_bridge
