#pragma once
// Every error code the server sends on the wire (an HTTP `{"error":{"code","message"}}` answer, a
// WebSocket `{"type":"error","code"}`), with its wire name and HTTP status in ONE table. Code
// compares codes as values; only the edges write (or read) the wire name. docs/protocol.md lists
// the codes: keep it and the table in step (tests/protocol/ErrorsTest.cpp checks the table).

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace semis::protocol {

enum class ErrorCode {
  // Any request.
  BadMessage,   // malformed JSON, a missing or mistyped field
  UnknownType,  // a WebSocket message of no known type
  TooLarge,     // a frame over 4 KiB, a body over 16 KiB
  NotFound,     // no such game, player, endpoint, session, code
  BadMethod,    // a known path asked with another method
  RateLimited,  // too many messages, games, sign-ins, reviews from one visitor
  Idle,         // a WebSocket silent too long: closed after this
  Busy,         // the store is locked or unreachable, a work queue is full: nothing changed, retry
  Unavailable,  // shutting down, or no club on this server
  Internal,     // the server failed: nothing changed
  Conflict,     // two instances raced (a player paired meanwhile): nothing changed, retry
  // A game.
  NotYourTurn,
  IllegalMove,
  NotAPlayer,
  GameOver,
  Stale,  // a replayed move id, an old `after`, an answered offer (with `n` for a move id)
  TooManyGames,
  NotAllowed,  // a take-back outside a casual game against the computer
  NothingToTakeBack,
  TooLate,   // an abort once both sides have moved
  TooEarly,  // a claim before the opponent may be gone
  // The club (docs/club.md).
  Blocked,
  TooManyFriends,
  BadUsername,
  BadPassword,
  UsernameTaken,
  AlreadySignedUp,
  BadCredentials,
  NotSignedUp,
  NotRated,        // a rated seek or invitation for a game not at its standard options
  AccountNeeded,   // rated play without an account
  TooManySeeks,
  AlreadySeeking,  // an open seek of the same rules and clock
  OutOfRange,      // a seek's rating range excludes the taker
  // The study (docs/study.md).
  BadDate,
  BadAttempt,
  NotOver,
  // Bots (docs/bots.md).
  SignInNeeded,  // a member's call asked by a guest or nobody
  BadToken,      // a bot's token unknown, malformed or revoked
  BotLimit,      // the owner has as many bots as he may
  NameTaken,     // a bot's name that is a bot's or a member's already
  BadName,       // a name that is not 1..24 printable characters
  NotForBots,    // a call that takes a person (a friend, a seek) named a bot
  NotYourBot,    // a bots' match or tournament started by someone who owns none of its bots
  BotOffline,    // a bots' match whose bot is not connected
};

struct ErrorCodeInfo {
  ErrorCode code;
  std::string_view wire;  // the `code` field's text
  int status;             // the HTTP status an API answer with it has (a WebSocket error has none)
};

// The one table, in the enum's order (a static_assert below checks it).
inline constexpr std::array<ErrorCodeInfo, 45> kErrorCodes{{
    {ErrorCode::BadMessage, "bad_message", 400},
    {ErrorCode::UnknownType, "unknown_type", 400},
    {ErrorCode::TooLarge, "too_large", 413},
    {ErrorCode::NotFound, "not_found", 404},
    {ErrorCode::BadMethod, "bad_method", 405},
    {ErrorCode::RateLimited, "rate_limited", 429},
    {ErrorCode::Idle, "idle", 400},
    {ErrorCode::Busy, "busy", 503},
    {ErrorCode::Unavailable, "unavailable", 503},
    {ErrorCode::Internal, "internal", 500},
    {ErrorCode::Conflict, "conflict", 400},
    {ErrorCode::NotYourTurn, "not_your_turn", 400},
    {ErrorCode::IllegalMove, "illegal_move", 400},
    {ErrorCode::NotAPlayer, "not_a_player", 400},
    {ErrorCode::GameOver, "game_over", 400},
    {ErrorCode::Stale, "stale", 400},
    {ErrorCode::TooManyGames, "too_many_games", 429},
    {ErrorCode::NotAllowed, "not_allowed", 400},
    {ErrorCode::NothingToTakeBack, "nothing_to_take_back", 400},
    {ErrorCode::TooLate, "too_late", 400},
    {ErrorCode::TooEarly, "too_early", 400},
    {ErrorCode::Blocked, "blocked", 403},
    {ErrorCode::TooManyFriends, "too_many_friends", 400},
    {ErrorCode::BadUsername, "bad_username", 400},
    {ErrorCode::BadPassword, "bad_password", 400},
    {ErrorCode::UsernameTaken, "username_taken", 409},
    {ErrorCode::AlreadySignedUp, "already_signed_up", 409},
    {ErrorCode::BadCredentials, "bad_credentials", 401},
    {ErrorCode::NotSignedUp, "not_signed_up", 400},
    {ErrorCode::NotRated, "not_rated", 400},
    {ErrorCode::AccountNeeded, "account_needed", 400},
    {ErrorCode::TooManySeeks, "too_many_seeks", 400},
    {ErrorCode::AlreadySeeking, "already_seeking", 400},
    {ErrorCode::OutOfRange, "out_of_range", 400},
    {ErrorCode::BadDate, "bad_date", 400},
    {ErrorCode::BadAttempt, "bad_attempt", 400},
    {ErrorCode::NotOver, "not_over", 409},
    {ErrorCode::SignInNeeded, "sign_in_needed", 401},
    {ErrorCode::BadToken, "bad_token", 401},
    {ErrorCode::BotLimit, "bot_limit", 409},
    {ErrorCode::NameTaken, "name_taken", 409},
    {ErrorCode::BadName, "bad_name", 400},
    {ErrorCode::NotForBots, "not_for_bots", 400},
    {ErrorCode::NotYourBot, "not_your_bot", 403},
    {ErrorCode::BotOffline, "bot_offline", 409},
}};

inline constexpr std::size_t kErrorCodeCount = kErrorCodes.size();

namespace detail {
constexpr bool tableInEnumOrder() {
  for (std::size_t i = 0; i < kErrorCodes.size(); ++i)
    if (static_cast<std::size_t>(kErrorCodes[i].code) != i) return false;
  return static_cast<std::size_t>(ErrorCode::BotOffline) + 1 == kErrorCodes.size();
}
static_assert(tableInEnumOrder(), "kErrorCodes lists every ErrorCode once, in the enum's order");
}  // namespace detail

[[nodiscard]] constexpr std::string_view wireName(ErrorCode c) {
  return kErrorCodes[static_cast<std::size_t>(c)].wire;
}
[[nodiscard]] constexpr int httpStatus(ErrorCode c) { return kErrorCodes[static_cast<std::size_t>(c)].status; }
// The code a wire name names, if any (a test reads the codes back; a client could too).
[[nodiscard]] constexpr std::optional<ErrorCode> parseErrorCode(std::string_view wire) {
  for (const auto& info : kErrorCodes)
    if (info.wire == wire) return info.code;
  return std::nullopt;
}

}  // namespace semis::protocol
