// tablero bridge: TableroPlayer (see TableroPlayer.h). The move conversion mirrors tablero's
// notation: colour letter y/b/r/g + piece index, die 1 2 4 5 6 10 20 or an item name, pass:<die>.
#include "TableroPlayer.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>

#include "Parchis.h"

namespace {

struct ItemName {
    int code;
    const char *name;
};
const ItemName ITEM_NAMES[] = {{star, "star"},         {boo, "boo"},
                               {bullet, "bullet"},     {red_shell, "redshell"},
                               {blue_shell, "blueshell"}, {mushroom, "mushroom"},
                               {mega_mushroom, "megamushroom"}, {shock, "shock"},
                               {horn, "horn"},         {banana, "banana"}};

string die_name(int dice) {
    for (const ItemName &it : ITEM_NAMES) {
        if (it.code == dice) return it.name;
    }
    return std::to_string(dice);
}

char letter(color c) {
    switch (c) {
        case yellow: return 'y';
        case blue: return 'b';
        case red: return 'r';
        case green: return 'g';
        default: return '?';
    }
}

string to_tablero(color c, int id, int dice) {
    if (id == SKIP_TURN) return "pass:" + die_name(dice);
    return string(1, letter(c)) + std::to_string(id) + ":" + die_name(dice);
}

bool from_tablero(const string &text, color pass_colour, color &c, int &id, int &dice) {
    size_t colon = text.find(':');
    if (colon == string::npos) return false;
    string piece = text.substr(0, colon), die = text.substr(colon + 1);
    dice = 0;
    for (const ItemName &it : ITEM_NAMES) {
        if (die == it.name) dice = it.code;
    }
    if (dice == 0) {
        if (die != "1" && die != "2" && die != "4" && die != "5" && die != "6" && die != "10" && die != "20") return false;
        dice = std::atoi(die.c_str());
    }
    if (piece == "pass") {
        c = pass_colour;
        id = SKIP_TURN;
        return true;
    }
    if (piece.size() != 2 || piece[1] < '0' || piece[1] > '3') return false;
    switch (piece[0]) {
        case 'y': c = yellow; break;
        case 'b': c = blue; break;
        case 'r': c = red; break;
        case 'g': c = green; break;
        default: return false;
    }
    id = piece[1] - '0';
    return true;
}

}  // namespace

TableroPlayer::TableroPlayer(const string &name, int id)
    : AIPlayer(name, id), seen_turn(1), broken(false), to_engine(-1), from_engine(-1), pid(-1) {}

TableroPlayer::~TableroPlayer() {
    if (pid > 0) {
        send("quit");
        close(to_engine);
        close(from_engine);
        waitpid(pid, nullptr, 0);
    }
}

void TableroPlayer::perceive(Parchis &p) {
    AIPlayer::perceive(p);
    int turn = p.getTurn();
    if (turn == seen_turn) return;
    if (turn == 1) {  // a new game on the same player object
        moves.clear();
        seen_turn = 1;
        broken = false;
        return;
    }
    if (turn != seen_turn + 1) {
        cerr << "TableroPlayer: missed " << (turn - seen_turn - 1) << " move(s); tablero cannot follow this game" << endl;
        broken = true;
    }
    const tuple<color, int, int> &last = p.getLastAction();
    moves.push_back(to_tablero(get<0>(last), get<1>(last), get<2>(last)));
    seen_turn = turn;
}

bool TableroPlayer::start_engine() const {
    if (pid > 0) return true;
    int in_pipe[2], out_pipe[2];
    if (pipe(in_pipe) != 0 || pipe(out_pipe) != 0) return false;
    signal(SIGPIPE, SIG_IGN);
    const char *cmd = std::getenv("TABLERO_CMD");
    string command = cmd && *cmd ? cmd : "tablero";
    pid = fork();
    if (pid < 0) return false;
    if (pid == 0) {
        dup2(in_pipe[0], 0);
        dup2(out_pipe[1], 1);
        close(in_pipe[1]);
        close(out_pipe[0]);
        execl("/bin/sh", "sh", "-c", command.c_str(), (char *)nullptr);
        _exit(127);
    }
    close(in_pipe[0]);
    close(out_pipe[1]);
    to_engine = in_pipe[1];
    from_engine = out_pipe[0];
    send("uci");
    string line;
    while (read_line(line)) {
        if (line == "uciok") break;
    }
    if (line != "uciok") {
        cerr << "TableroPlayer: '" << command << "' did not answer 'uci' (set TABLERO_CMD)" << endl;
        return false;
    }
    send("setoption name UCI_Variant value parchis");
    const char *opts = std::getenv("TABLERO_OPTIONS");
    if (opts) {
        std::stringstream ss(opts);
        string kv;
        while (std::getline(ss, kv, ';')) {
            size_t eq = kv.find('=');
            if (eq != string::npos) send("setoption name " + kv.substr(0, eq) + " value " + kv.substr(eq + 1));
        }
    }
    return true;
}

bool TableroPlayer::send(const string &line) const {
    string l = line + "\n";
    return write(to_engine, l.data(), l.size()) == (ssize_t)l.size();
}

bool TableroPlayer::read_line(string &line) const {
    for (;;) {
        size_t nl = pending.find('\n');
        if (nl != string::npos) {
            line = pending.substr(0, nl);
            pending.erase(0, nl + 1);
            return true;
        }
        char buf[4096];
        ssize_t n = read(from_engine, buf, sizeof buf);
        if (n <= 0) return false;
        pending.append(buf, n);
    }
}

void TableroPlayer::think(color &c_piece, int &id_piece, int &dice) const {
    // Safe fallback values: the simulator will call them illegal if tablero gives no move.
    c_piece = actual->getCurrentColor();
    id_piece = SKIP_TURN;
    dice = -1;
    if (broken || !start_engine()) {
        cerr << "TableroPlayer: no engine to ask; passing (the simulator will judge it)" << endl;
        return;
    }
    string pos = "position startpos";
    if (!moves.empty()) {
        pos += " moves";
        for (const string &m : moves) pos += " " + m;
    }
    string go;
    if (id > 0) {
        go = "go depth " + std::to_string(id);
    } else {
        const char *g = std::getenv("TABLERO_GO");
        go = g && *g ? g : "go depth 6";
    }
    send(pos);
    send(go);
    string line;
    while (read_line(line)) {
        if (line.rfind("info string error", 0) == 0) cerr << "TableroPlayer: tablero says: " << line << endl;
        if (line.rfind("bestmove ", 0) == 0) break;
    }
    if (line.rfind("bestmove ", 0) != 0) {
        cerr << "TableroPlayer: tablero exited without a bestmove" << endl;
        return;
    }
    string best = line.substr(9);
    if (!from_tablero(best, actual->getCurrentColor(), c_piece, id_piece, dice)) {
        cerr << "TableroPlayer: cannot read tablero's move '" << best << "'" << endl;
        return;
    }
    // A move tablero calls legal that the course rejects is a rule disagreement: say so loudly
    // and play it anyway, so the simulator's own verdict shows it.
    bool legal;
    if (id_piece == SKIP_TURN) {
        legal = actual->canSkipTurn(actual->getCurrentColor(), dice);
    } else {
        vector<tuple<color, int>> pieces = actual->getAvailablePieces(actual->getCurrentColor(), dice);
        legal = find(pieces.begin(), pieces.end(), make_tuple(c_piece, id_piece)) != pieces.end();
    }
    if (!legal) cerr << "TableroPlayer: RULE DISAGREEMENT: tablero played " << best << ", which the course core rejects" << endl;
}

bool TableroPlayer::move() {
    color c_piece;
    int id_piece, dice;
    think(c_piece, id_piece, dice);
    cout << "TableroPlayer: " << str(c_piece) << " " << id_piece << " " << dice << endl;
    actual->movePiece(c_piece, id_piece, dice);
    return true;
}
