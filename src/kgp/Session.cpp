#include "kgp/Session.hpp"

#include <algorithm>

#include "kgp/Board.hpp"

namespace semis::kgp {

namespace {

// After a turn, a bot may still be writing (kgpc's deferred `yield`): wait before a periodic ping.
constexpr std::int64_t kSettleMs = 1000;

// What a bot wrote, echoed in an error: short, cut on a character boundary, so a reply never
// outgrows the line limit.
std::string echo(std::string_view text) {
  constexpr std::size_t kMax = 64;
  if (text.size() <= kMax) return std::string(text);
  std::size_t cut = kMax;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "...";
}

Command make(std::string name, std::vector<Arg> args = {}) {
  Command c;
  c.name = std::move(name);
  c.args = std::move(args);
  return c;
}

}  // namespace

std::string_view wireName(SessionError code) {
  switch (code) {
    case SessionError::BadLine: return "bad_line";
    case SessionError::BadArguments: return "bad_arguments";
    case SessionError::UnknownCommand: return "unknown_command";
    case SessionError::UnsupportedMode: return "unsupported_mode";
    case SessionError::DuplicateMode: return "duplicate_mode";
    case SessionError::NoMode: return "no_mode";
    case SessionError::BadToken: return "bad_token";
    case SessionError::NoState: return "no_state";
    case SessionError::IllegalMove: return "illegal_move";
    case SessionError::NoPong: return "no_pong";
    case SessionError::Flood: return "flood";
  }
  return "bad_line";
}

std::uint64_t Session::nextId() { return lastId_ += 2; }

std::uint64_t Session::send(Output& out, Command cmd) {
  cmd.id = nextId();
  out.lines.push_back(formatCommand(cmd));
  return *cmd.id;
}

void Session::sendError(Output& out, std::optional<std::uint64_t> ref, SessionError code, std::string_view message) {
  Command c = make("error", {Arg::ofString(std::string(wireName(code)) + ": " + std::string(message))});
  c.ref = ref;
  send(out, std::move(c));
  ++errorsSent_;
}

void Session::fault(Output& out, std::optional<std::uint64_t> ref, SessionError code, std::string_view message) {
  sendError(out, ref, code, message);
  if (++badInARow_ >= config_.maxBadLines) {
    shut(out, std::nullopt, SessionError::Flood, std::to_string(badInARow_) + " bad lines in a row");
  }
}

void Session::shut(Output& out, std::optional<std::uint64_t> ref, SessionError code, std::string_view message) {
  if (closed_) return;
  sendError(out, ref, code, message);
  out.lines.emplace_back("goodbye");
  out.close = true;
  out.closeReason = std::string(wireName(code));
  closed_ = true;
}

Output Session::start(std::int64_t nowMs) {
  Output out;
  if (started_) return out;
  started_ = true;
  out.lines.emplace_back("kgp 1 0 1");
  modeDeadlineMs_ = nowMs + config_.modeTimeoutMs;
  nextPingMs_ = nowMs + config_.pingIntervalMs;
  return out;
}

Output Session::onLineError(const KgpError& error, std::int64_t /*nowMs*/) {
  Output out;
  if (closed_ || error.code == KgpErrorCode::Empty) return out;
  if (turn_) turn_->heard = true;
  fault(out, std::nullopt, SessionError::BadLine, std::string(wireName(error.code)) + ": " + error.message);
  return out;
}

Output Session::onLine(std::string_view line, std::int64_t nowMs) {
  Output out;
  if (closed_) return out;
  auto parsed = parseLine(line);
  if (!parsed) return onLineError(parsed.error(), nowMs);
  const Command& cmd = *parsed;
  if (turn_) turn_->heard = true;
  const int before = badInARow_;
  if (cmd.name == "mode") {
    onMode(out, cmd);
  } else if (cmd.name == "set") {
    onSet(out, cmd);
  } else if (cmd.name == "move" || cmd.name == "yield") {
    onMoveOrYield(out, cmd, nowMs);
  } else if (cmd.name == "ping") {
    Command pong = make("pong", cmd.args);
    pong.ref = cmd.id;
    pong.id = lastId_ + 2;
    // Its arguments echoed (pykgp does so), unless that would outgrow the line limit.
    if (formatCommand(pong).size() > kMaxLineBytes) pong.args.clear();
    send(out, std::move(pong));
  } else if (cmd.name == "pong") {
    pongDeadlineMs_.reset();
    nextPingMs_ = nowMs + config_.pingIntervalMs;
  } else if (cmd.name == "goodbye") {
    out.lines.emplace_back("goodbye");
    out.close = true;
    out.closeReason = "goodbye";
    closed_ = true;
  } else if (cmd.name == "ok" || cmd.name == "error") {
    // Nothing the session asks is confirmed or refused by the bot (go-kgp ignores them too).
  } else if (freeplay_) {
    fault(out, cmd.id, SessionError::UnknownCommand, "unknown command " + echo(cmd.name));
  }
  // Before `mode`, go-kgp ignores unknown commands silently: so does Semis.
  if (badInARow_ == before && !closed_) badInARow_ = 0;
  return out;
}

void Session::maybeReady(Output& out) {
  if (ready()) out.actions.emplace_back(Ready{authOk_});
}

void Session::onMode(Output& out, const Command& cmd) {
  const auto mode = cmd.args.size() == 1 ? asText(cmd.args[0]) : std::nullopt;
  if (!mode) {
    fault(out, cmd.id, SessionError::BadArguments, "mode takes one word: mode freeplay");
    return;
  }
  if (freeplay_) {
    shut(out, cmd.id, SessionError::DuplicateMode, "a second mode");
    return;
  }
  if (*mode != "freeplay") {
    shut(out, cmd.id, SessionError::UnsupportedMode, "unsupported mode " + echo(*mode) + ": Semis plays freeplay");
    return;
  }
  freeplay_ = true;
  Command ok = make("ok", {Arg::ofString("freeplay")});
  ok.ref = cmd.id;
  send(out, std::move(ok));
  maybeReady(out);
}

void Session::onSet(Output& out, const Command& cmd) {
  const auto key = cmd.args.size() == 2 ? asText(cmd.args[0]) : std::nullopt;
  const auto value = cmd.args.size() == 2 ? asText(cmd.args[1]) : std::nullopt;
  if (!key || !value) {
    fault(out, cmd.id, SessionError::BadArguments, "set takes an option and a value");
    return;
  }
  // Options Semis does not know are ignored, as the spec asks.
  if (*key == "info:name") {
    name_ = *value;
  } else if (*key == "info:authors" || *key == "info:author") {
    authors_ = *value;
  } else if (*key == "info:description") {
    description_ = *value;
  } else if (*key == "info:comment") {
    if (turn_) turn_->comment = *value;
  } else if (*key == "auth:token") {
    if (value->empty()) {
      fault(out, cmd.id, SessionError::BadArguments, "an empty token");
    } else if ((authOk_ || authPending_) && *value != token_) {
      fault(out, cmd.id, SessionError::BadArguments, "this connection has a token already");
    } else if (!authOk_ && !authPending_) {
      token_ = *value;
      authPending_ = true;
      out.actions.emplace_back(Authenticate{token_});
    }
  }
}

Output Session::authenticated(bool ok, std::int64_t /*nowMs*/) {
  Output out;
  if (closed_ || !authPending_) return out;
  authPending_ = false;
  if (!ok) {
    shut(out, std::nullopt, SessionError::BadToken, "unknown or revoked token");
    return out;
  }
  authOk_ = true;
  maybeReady(out);
  return out;
}

void Session::onMoveOrYield(Output& out, const Command& cmd, std::int64_t nowMs) {
  const auto errRef = cmd.id ? cmd.id : cmd.ref;
  if (!cmd.ref) {
    fault(out, errRef, SessionError::NoState, cmd.name + " needs the state's id as reference: @id " + cmd.name);
    return;
  }
  if (!turn_ || *cmd.ref != turn_->stateId) {
    // A move for a state already stopped is ignored silently (spec/021-freeplay.md).
    if (*cmd.ref > lastId_) fault(out, errRef, SessionError::NoState, "no state " + std::to_string(*cmd.ref));
    return;
  }
  if (cmd.name == "yield") {
    endTurn(out, true, nowMs);
    return;
  }
  const auto k = cmd.args.size() == 1 ? asInteger(cmd.args[0]) : std::nullopt;
  if (!k) {
    fault(out, errRef, SessionError::BadArguments, "move takes one integer");
    return;
  }
  const auto house = houseOfKgpMove(*k, turn_->board.houses());
  if (!house || !turn_->board.isLegal(turn_->position, *house)) {
    fault(out, errRef, SessionError::IllegalMove,
          "illegal move " + std::to_string(*k) + " (legal: " + turn_->board.legalList(turn_->position) + ")");
    return;
  }
  turn_->move = *house;
}

Result<Output> Session::offerTurn(const Turn& turn, std::int64_t nowMs) {
  if (closed_) return fail("the bot's connection is closed");
  if (!ready()) return fail("the bot has not chosen freeplay (or its token is being checked)");
  if (turn_) return fail("the bot is in a turn already");
  if (turn.moveTimeMs <= 0) return fail("a turn needs time");
  Board board(turn.rules);
  const Position& pos = turn.position;
  if (board.legalMask(pos) == 0) return fail("the bot has no legal move in this position");
  auto values = toKgpBoard(board, pos, pos.toMove);
  if (!values) return tl::unexpected(values.error());

  Output out;
  if (!sentGame_ || turn.gameId != lastGameId_) {
    sentGame_ = true;
    lastGameId_ = turn.gameId;
    send(out, make("set", {Arg::ofText("game:id"), Arg::ofString(turn.gameId)}));
    send(out, make("set", {Arg::ofText("game:opponent"), Arg::ofString(turn.opponent)}));
    send(out, make("set", {Arg::ofText("game:uri"), Arg::ofString(turn.uri)}));
  }
  const std::uint64_t id = send(out, make("state", {Arg::ofBoard(std::move(*values))}));
  turn_.emplace(ActiveTurn{turn.gameId, board, pos, id, nowMs + turn.moveTimeMs, std::nullopt, {}, false});
  return out;
}

void Session::endTurn(Output& out, bool decide, std::int64_t nowMs) {
  if (!turn_) return;
  Command stop = make("stop");
  stop.ref = turn_->stateId;
  send(out, std::move(stop));
  if (decide) {
    Decided d{turn_->gameId, 0, turn_->move.has_value(), std::move(turn_->comment)};
    if (turn_->move) {
      d.house = *turn_->move;
    } else {
      // The lowest legal house: deterministic, so a replay of the record needs no random seed.
      const std::uint32_t mask = turn_->board.legalMask(turn_->position);
      for (int h = 1; h <= turn_->board.houses() && d.house == 0; ++h) {
        if ((mask >> (h - 1)) & 1U) d.house = h;
      }
    }
    out.actions.emplace_back(std::move(d));
  }
  turn_.reset();
  nextPingMs_ = std::max(nextPingMs_, nowMs + kSettleMs);
}

Output Session::cancelTurn(std::int64_t nowMs) {
  Output out;
  if (!closed_) endTurn(out, false, nowMs);
  return out;
}

Output Session::tick(std::int64_t nowMs) {
  Output out;
  if (closed_ || !started_) return out;
  if (!freeplay_ && nowMs >= modeDeadlineMs_) {
    shut(out, std::nullopt, SessionError::NoMode, "no mode requested in time");
    return out;
  }
  if (pongDeadlineMs_ && nowMs >= *pongDeadlineMs_) {
    out.actions.emplace_back(Unresponsive{});
    shut(out, std::nullopt, SessionError::NoPong, "no pong in time");
    return out;
  }
  if (turn_ && nowMs >= turn_->deadlineMs) {
    // A bot silent all turn may be gone: ping it before `stop`, as go-kgp does.
    if (!turn_->heard && !pongDeadlineMs_) {
      send(out, make("ping"));
      pongDeadlineMs_ = nowMs + config_.pongTimeoutMs;
    }
    endTurn(out, true, nowMs);
  }
  if (!turn_ && freeplay_ && !pongDeadlineMs_ && config_.pingIntervalMs > 0 && nowMs >= nextPingMs_) {
    send(out, make("ping"));
    pongDeadlineMs_ = nowMs + config_.pongTimeoutMs;
  }
  return out;
}

std::optional<std::int64_t> Session::nextDeadline() const {
  if (closed_ || !started_) return std::nullopt;
  std::optional<std::int64_t> next;
  const auto consider = [&next](std::int64_t t) { next = next ? std::min(*next, t) : t; };
  if (!freeplay_) consider(modeDeadlineMs_);
  if (pongDeadlineMs_) consider(*pongDeadlineMs_);
  if (turn_) consider(turn_->deadlineMs);
  if (!turn_ && freeplay_ && !pongDeadlineMs_ && config_.pingIntervalMs > 0) consider(nextPingMs_);
  return next;
}

Output Session::close(std::string reason) {
  Output out;
  if (closed_) return out;
  out.lines.emplace_back("goodbye");
  out.close = true;
  out.closeReason = std::move(reason);
  closed_ = true;
  return out;
}

}  // namespace semis::kgp
