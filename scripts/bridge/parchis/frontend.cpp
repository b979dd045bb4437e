// tablero bridge: the protocol front end (see frontend.h). Error lines follow protocol.md:
// exactly one `info string error: …` line per bad input, and a rejected command changes nothing.
#ifdef TABLERO_BRIDGE_2024
// The 2024-25 core counts a search's nodes in NodeCounter, which the simulator resets before every
// move (Parchis::gameStep) and only its friends may reset: this file alone reads its private part
// as public to do the same before each think() (the standard headers it includes come first, so
// only NodeCounter's own declaration is affected). Nothing in the core is changed.
#include <chrono>
#include <iostream>
#define private public
#include "model/NodeCounter.h"
#undef private
#endif
#include "frontend.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include "notation.h"
#include "protocol_text.h"

namespace bridge {

namespace {

using Clock = std::chrono::steady_clock;
using bridge_text::cut;
using bridge_text::lower;
using bridge_text::ms_since;
using bridge_text::parse_uint;
using bridge_text::Token;
using bridge_text::tokenize;

class Session {
public:
    Session(std::FILE *out, const Hooks &hooks) : out_(out), hooks_(hooks) {
        player_ = hooks_.make_player(player_id_);
        reset_game();
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
            // The player's think() runs synchronously, so nothing can be running here.
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
    int player_id_ = 0;
    std::shared_ptr<AIPlayer> player_;
    std::shared_ptr<Parchis> game_;
    std::string start_ = "startpos";
    std::vector<std::string> moves_;
    bool warned_depth_ = false;

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

    std::shared_ptr<Parchis> fresh(const std::string &start) {
        // The opponent seat gets its own player object; only the seat to move is ever asked.
        std::shared_ptr<Player> other = hooks_.make_player(player_id_);
#ifdef TABLERO_BRIDGE_2024
        // The 2024-25 simulator's main always starts GROUPED2 (two pieces a colour).
        const BoardConfig board = GROUPED2;
#else
        const BoardConfig board = GROUPED;
#endif
        std::shared_ptr<Parchis> g = std::make_shared<Parchis>(board, std::static_pointer_cast<Player>(player_), other);
#if !defined(TABLERO_BRIDGE_2021) && !defined(TABLERO_BRIDGE_2023) && !defined(TABLERO_BRIDGE_2024)
        if (start == "playground") g->setPlaygroundMode();
#endif
        return g;
    }

    void reset_game() {
        refused_.clear();
        start_ = "startpos";
        moves_.clear();
        game_ = fresh(start_);
    }

    // Whether the course core accepts `m` in `g` (before playing it).
    static bool course_legal(const Parchis &g, const CourseMove &m) {
        color main = g.getCurrentColor();
        if (m.id == SKIP_TURN) return g.canSkipTurn(main, m.dice);
#ifdef TABLERO_BRIDGE_2021
        // 2021-22: only the colour to move moves, and the core lists its piece ids.
        if (m.c != main) return false;
        std::vector<int> pieces = g.getAvailablePieces(main, m.dice);
        return std::find(pieces.begin(), pieces.end(), m.id) != pieces.end();
#else
        std::vector<std::tuple<color, int>> pieces = g.getAvailablePieces(main, m.dice);
        return std::find(pieces.begin(), pieces.end(), std::make_tuple(m.c, m.id)) != pieces.end();
#endif
    }

    void cmd_uci() {
        say("id name " + hooks_.engine_name);
        say("id author the tablero developers (bridge); the player's authors (AIPlayer)");
        say("option name UCI_Variant type combo default parchis var parchis");
        say("option name PlayerId type spin default 0 min 0 max 1000000");
#ifdef TABLERO_BRIDGE_2021
        // Built on the 2021-22 simulator: the referee's `setoption name Year` must say so.
        say("option name Year type combo default 2021-22 var 2021-22");
#elif defined(TABLERO_BRIDGE_2023)
        say("option name Year type combo default 2023-24 var 2023-24");
#elif defined(TABLERO_BRIDGE_2024)
        say("option name Year type combo default 2024-25 var 2024-25");
#endif
        if (hooks_.depth) {
            say("option name Depth type spin default " + std::to_string(*hooks_.depth) + " min 1 max 64");
        }
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
            if (lower(value) != "parchis") {
                error("setoption UCI_Variant: unknown game '" + cut(value) + "' (the course bridge plays only parchis)");
                return;
            }
            reset_game();
        } else if (key == "playerid") {
            long long v;
            if (!has_value || !parse_uint(value, v) || v > 1000000) {
                error("setoption PlayerId: value '" + cut(value) + "' is not an integer in 0..=1000000");
                return;
            }
            player_id_ = static_cast<int>(v);
            player_ = hooks_.make_player(player_id_);
            std::vector<std::string> keep = moves_;
            std::string start = start_;
            replay(start, keep, 0);  // re-seat the new player in the same position
#ifdef TABLERO_BRIDGE_2021
        } else if (key == "year") {
            if (lower(value) != "2021-22") {
                error("setoption Year: this player was built on the 2021-22 simulator (build.sh --year) and cannot play '" +
                      cut(value) + "'");
                return;
            }
#elif defined(TABLERO_BRIDGE_2023)
        } else if (key == "year") {
            if (lower(value) != "2023-24") {
                error("setoption Year: this player was built on the 2023-24 simulator (build.sh --year) and cannot play '" +
                      cut(value) + "'");
                return;
            }
#elif defined(TABLERO_BRIDGE_2024)
        } else if (key == "year") {
            if (lower(value) != "2024-25") {
                error("setoption Year: this player was built on the 2024-25 simulator (build.sh --year) and cannot play '" +
                      cut(value) + "'");
                return;
            }
#endif
        } else if (key == "depth" && hooks_.depth) {
            long long v;
            if (!has_value || !parse_uint(value, v) || v < 1 || v > 64) {
                error("setoption Depth: value '" + cut(value) + "' is outside 1..=64");
                return;
            }
            *hooks_.depth = static_cast<int>(v);
        } else {
            error("setoption: unknown option '" + cut(name) + "'; 'uci' lists the options");
        }
    }

    // Replays `moves` from `start` with the course core; on success installs the position. The
    // column of move i is cols[i] when given (for error messages).
    bool replay(const std::string &start, const std::vector<std::string> &moves, const std::vector<int> *cols,
                bool full = false) {
        // A referee sends the whole game before every move; when it extends the position already
        // replayed, only the new moves are played (a copy, so a rejected move changes nothing).
        std::size_t from = 0;
        bool extends = !full && start == start_ && moves.size() >= moves_.size() &&
                       std::equal(moves_.begin(), moves_.end(), moves.begin());
        std::shared_ptr<Parchis> g;
        if (extends) {
            g = std::make_shared<Parchis>(*game_);
            from = moves_.size();
        } else {
            g = fresh(start);
        }
        for (std::size_t i = from; i < moves.size(); i++) {
            std::string where = "move " + std::to_string(i + 1) + " '" + cut(moves[i]) + "'" +
                                (cols ? " (character " + std::to_string((*cols)[i]) + ")" : "");
            if (g->gameOver()) {
                error("position: " + where + " comes after the end of the game in the course simulator (rule disagreement: tablero still plays on)");
                return false;
            }
            CourseMove m;
            std::string err;
            if (!parse_tablero_move(moves[i], g->getCurrentColor(), m, err)) {
                error("position: " + where + ": " + err + "");
                return false;
            }
            if (!course_legal(*g, m)) {
                error("position: " + where + " is illegal in the course simulator (rule disagreement, course move " +
                      std::to_string(static_cast<int>(m.c)) + " " + std::to_string(m.id) + " " + std::to_string(m.dice) +
                      ", player " + std::to_string(g->getCurrentPlayerId()) + " to move)");
                return false;
            }
            g->movePiece(m.c, m.id, m.dice);
            if (g->illegalMove()) {
                error("position: " + where + " was refused by the course core's movePiece (rule disagreement)");
                return false;
            }
        }
        start_ = start;
        moves_ = moves;
        game_ = g;
        return true;
    }
    bool replay(const std::string &start, const std::vector<std::string> &moves, int) {
        return replay(start, moves, nullptr, true);
    }

    void cmd_position(const std::vector<Token> &t) {
        if (t.size() < 2) {
            error("position: expected 'startpos', 'playground' or 'fen <state>' (character " +
                  std::to_string(t[0].column + 8) + ")");
            return;
        }
        const std::string &base = t[1].text;
        if (base == "fen") {
            error("position fen: the course core cannot load a state string; use 'position startpos moves …'");
            return;
        }
#ifdef TABLERO_BRIDGE_2021
        if (base == "playground") {
            error("position: the 2021-22 simulator has no playground (use 'startpos')");
            return;
        }
#elif defined(TABLERO_BRIDGE_2023)
        if (base == "playground") {
            error("position: the 2023-24 simulator has no playground (use 'startpos')");
            return;
        }
#elif defined(TABLERO_BRIDGE_2024)
        if (base == "playground") {
            error("position: tablero's 2024-25 has no playground (use 'startpos')");
            return;
        }
#endif
        if (base != "startpos" && base != "playground") {
            error("position: unknown start '" + cut(base) + "' for parchis (use 'startpos' or 'playground')");
            return;
        }
        std::vector<std::string> moves;
        std::vector<int> cols;
        if (t.size() > 2) {
            if (t[2].text != "moves") {
                error("position: expected 'moves', got '" + cut(t[2].text) + "' (character " + std::to_string(t[2].column) + ")");
                return;
            }
            for (std::size_t i = 3; i < t.size(); i++) {
                moves.push_back(t[i].text);
                cols.push_back(t[i].column);
            }
        }
        Clock::time_point t0 = Clock::now();
        if (replay(base, moves, &cols)) last_replay_ms_ = ms_since(t0);
    }
    double last_replay_ms_ = 0;

    void cmd_go(const std::vector<Token> &t) {
        int depth = -1;
        std::string go_err;
        if (!bridge_text::parse_go(t, depth, go_err)) {
            error(go_err);
            return;
        }
        if (no_position()) return;
        if (game_->gameOver()) {
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
                " ignored: the player's depth is fixed in its source (build.sh found no depth variable to expose)");
        }
        // The player thinks on its own copy: think() may not touch the replayed game.
        Parchis copy(*game_);
        player_->perceive(copy);
        color c = copy.getCurrentColor();
        int id = SKIP_TURN, dice = -1;
        Clock::time_point t0 = Clock::now();
#ifdef TABLERO_BRIDGE_2024
        NodeCounter::reset();
#endif
        player_->think(c, id, dice);
        double think_ms = ms_since(t0);
        if (depth > 0 && hooks_.depth) *hooks_.depth = saved;
        Clock::time_point t1 = Clock::now();
        CourseMove m{c, id, dice};
        std::string text, err;
        bool ok = format_tablero_move(m, text, err);
        if (ok && !course_legal(*game_, m)) {
            fault("the player chose " + text + " (course move " + std::to_string(static_cast<int>(c)) + " " +
                  std::to_string(id) + " " + std::to_string(dice) + "), which the course core calls illegal");
        }
        double convert_ms = ms_since(t1);
        int d = hooks_.depth ? (depth > 0 ? depth : *hooks_.depth) : 0;
        char buf[200];
        std::snprintf(buf, sizeof buf, "info string bridge replay_ms %.3f think_ms %.3f convert_ms %.3f", last_replay_ms_,
                      think_ms, convert_ms);
        say(buf);
#ifdef TABLERO_BRIDGE_2024
        // The course's own count of this think(): what its node budget limits.
        say("info string bridge course_nodes generated " + std::to_string(NodeCounter::getGenerated()) + " evaluated " +
            std::to_string(NodeCounter::getEvaluated()));
#endif
        if (d > 0) say("info depth " + std::to_string(d) + " time " + std::to_string(static_cast<long long>(think_ms)));
        if (!ok) {
            fault("the player's move cannot be written in tablero notation: " + err);
            say("bestmove (none)");
            return;
        }
        say("bestmove " + text);
    }

    void cmd_d() {
        if (!hooks_.dump) {
            say("info string d: no state dump in this build");
            return;
        }
        say("course " + hooks_.dump(*game_));
    }
};

}  // namespace

int run(std::istream &in, std::FILE *out, const Hooks &hooks) {
    Session s(out, hooks);
    std::string line;
    while (std::getline(in, line)) {
        if (!s.handle(line)) break;
    }
    return 0;
}

}  // namespace bridge
