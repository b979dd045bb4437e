// A player file written for tablero's CI (tests/bridge_parchis.rs), NOT a student's: like real
// students' files it includes only "AIPlayer.h" and "Parchis.h" and still uses standard names
// that only the simulator's GUI include chain declares (the bridge's stub must provide them):
// sqrt and pow (<math.h>), std::list, std::queue / priority_queue, std::set and std::ofstream /
// ifstream (<fstream>); printf, atoi, back_inserter and locale come from that chain too (with
// g++ 12 also through <iostream> and <algorithm>). main() runs think() and prints what it
// computed, so the test checks the result.
#include "AIPlayer.h"
#include "Parchis.h"

void AIPlayer::think(color &c_piece, int &id_piece, int &dice) const {
    list<double> distances = {9.0, 16.0, 25.0};
    queue<int> pending;
    priority_queue<int> best;
    set<int> seen;
    for (double d : distances) {
        int r = static_cast<int>(sqrt(d) + pow(2.0, 0.0) - 1.0);
        pending.push(r);
        best.push(r);
        seen.insert(r);
    }
    vector<int> copied;
    copy(seen.begin(), seen.end(), back_inserter(copied));
    ofstream log("header_player.log");
    log << best.top() << "\n";
    log.close();
    ifstream back("header_player.log");
    int read_back = 0;
    back >> read_back;
    locale loc = locale::classic();
    id_piece = static_cast<int>(pending.size()) + (isdigit('7', loc) ? 0 : 100);
    dice = read_back + atoi("0") + static_cast<int>(copied.size());
    c_piece = id == 0 ? yellow : blue;
}

int main() {
    AIPlayer p(0);
    color c = none;
    int id = -1, dice = -1;
    p.think(c, id, dice);
    printf("think: colour %d piece %d dice %d\n", static_cast<int>(c), id, dice);
    return 0;
}
