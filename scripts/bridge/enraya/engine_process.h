// tablero bridge (5-en-Raya Táctico): a protocol engine run as a child process, line by line.
// Used by AgenteTablero (tablero inside the course simulator) and by the bridged engine's
// CrossCheck option (every position the course core sees, also set up in tablero). Header-only,
// POSIX only, no course code.
//
// The command runs with `/bin/sh -c`, so it may carry arguments. Its stderr is ours. Writing to
// an engine that has gone does not kill us (SIGPIPE is ignored once a process is started): the
// write just fails.
#ifndef TABLERO_ENRAYA_ENGINE_PROCESS_H
#define TABLERO_ENRAYA_ENGINE_PROCESS_H

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <mutex>
#include <string>

namespace enraya {

class EngineProcess {
public:
    EngineProcess() = default;
    EngineProcess(const EngineProcess &) = delete;
    EngineProcess &operator=(const EngineProcess &) = delete;
    ~EngineProcess() { stop_process(); }

    // Starts `command`; false with `err` set when it cannot be started.
    bool start(const std::string &command, std::string &err) {
        stop_process();
        int in_pipe[2], out_pipe[2];
        if (pipe(in_pipe) != 0) {
            err = std::string("pipe: ") + std::strerror(errno);
            return false;
        }
        if (pipe(out_pipe) != 0) {
            err = std::string("pipe: ") + std::strerror(errno);
            close(in_pipe[0]);
            close(in_pipe[1]);
            return false;
        }
        signal(SIGPIPE, SIG_IGN);
        pid_t pid = fork();
        if (pid < 0) {
            err = std::string("fork: ") + std::strerror(errno);
            close(in_pipe[0]);
            close(in_pipe[1]);
            close(out_pipe[0]);
            close(out_pipe[1]);
            return false;
        }
        if (pid == 0) {
            dup2(in_pipe[0], 0);
            dup2(out_pipe[1], 1);
            close(in_pipe[0]);
            close(in_pipe[1]);
            close(out_pipe[0]);
            close(out_pipe[1]);
            signal(SIGPIPE, SIG_DFL);
            execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char *>(nullptr));
            _exit(127);
        }
        close(in_pipe[0]);
        close(out_pipe[1]);
        fcntl(in_pipe[1], F_SETFD, FD_CLOEXEC);
        fcntl(out_pipe[0], F_SETFD, FD_CLOEXEC);
        pid_ = pid;
        to_ = in_pipe[1];
        from_ = out_pipe[0];
        buffer_.clear();
        command_ = command;
        return true;
    }

    bool running() const { return pid_ > 0; }
    const std::string &command() const { return command_; }

    // Sends one line; false when the engine is gone. Safe to call from another thread while a
    // read_line() waits (interrumpir() sends `stop` so).
    bool send(const std::string &line) {
        std::lock_guard<std::mutex> lock(write_mutex_);
        if (to_ < 0) return false;
        std::string s = line + "\n";
        std::size_t done = 0;
        while (done < s.size()) {
            ssize_t n = write(to_, s.data() + done, s.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return false;
            done += static_cast<std::size_t>(n);
        }
        return true;
    }

    // Reads one line (without its newline); false at the end of the engine's output, or when
    // `timeout_ms` (negative: no limit) passes first — then `timed_out` is set.
    bool read_line(std::string &line, int timeout_ms, bool *timed_out = nullptr) {
        if (timed_out) *timed_out = false;
        auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms < 0 ? 0 : timeout_ms);
        while (true) {
            std::size_t nl = buffer_.find('\n');
            if (nl != std::string::npos) {
                line = buffer_.substr(0, nl);
                buffer_.erase(0, nl + 1);
                if (!line.empty() && line.back() == '\r') line.pop_back();
                return true;
            }
            if (from_ < 0) return false;
            int wait = -1;
            if (timeout_ms >= 0) {
                auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
                if (left.count() <= 0) {
                    if (timed_out) *timed_out = true;
                    return false;
                }
                wait = static_cast<int>(left.count());
            }
            struct pollfd p = {from_, POLLIN, 0};
            int r = poll(&p, 1, wait);
            if (r < 0 && errno == EINTR) continue;
            if (r == 0) continue;  // the deadline check above answers
            char chunk[4096];
            ssize_t n = read(from_, chunk, sizeof chunk);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                close(from_);
                from_ = -1;
                return false;
            }
            buffer_.append(chunk, static_cast<std::size_t>(n));
        }
    }

    // Sends `quit`, waits up to a second for the engine to exit, then kills it.
    void stop_process() {
        if (pid_ <= 0) return;
        send("quit");
        {
            std::lock_guard<std::mutex> lock(write_mutex_);
            if (to_ >= 0) close(to_);
            to_ = -1;
        }
        for (int i = 0; i < 100; i++) {
            if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
                pid_ = -1;
                break;
            }
            usleep(10000);
        }
        if (pid_ > 0) {
            kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
            pid_ = -1;
        }
        if (from_ >= 0) close(from_);
        from_ = -1;
        buffer_.clear();
    }

private:
    pid_t pid_ = -1;
    int to_ = -1;
    int from_ = -1;
    std::string buffer_;
    std::string command_;
    std::mutex write_mutex_;
};

}  // namespace enraya

#endif
