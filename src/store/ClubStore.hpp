#pragma once
// The club's records (docs/club.md): accounts, sign-in sessions, claim codes, ratings and their
// history, seeks, friends and blocks. Reached through Store::club(); each backend keeps it beside
// its game tables, in the same database, so a rated game's result and the ratings it moves can be
// written in one transaction. Every call is one atomic unit, like Store's.

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "store/Store.hpp"

namespace semis::store {

// A player who signed up. `username` is unique by its key, which the caller computes
// (accounts::usernameKey: without regard to case); the display name stays the player row's `name`.
// `passwordHash` is libsodium's Argon2id string.
struct AccountRow {
  std::string player;
  std::string username;
  std::string passwordHash;
  long long created = 0;  // unix ms
  std::string usernameKey;
};

// One player's rating in one rated game (`key`: kalah, kalah-club, mangala, mangala-castle,
// al-manqala, congkak). A player who never played that game has no row: 1500, 500, 0.09.
struct RatingRow {
  std::string player;
  std::string key;
  double rating = 1500;
  double deviation = 500;
  double volatility = 0.09;
  long long games = 0, wins = 0, draws = 0, losses = 0;
  long long at = 0;  // unix ms of the last rated game (0: never)
};

struct RatingPoint {
  long long at = 0;
  double rating = 0;
  double deviation = 0;
  std::string game;
};

// What one rated game did: both players' rows after it. Written once per game: a second result
// for the same game is a Conflict and changes nothing (two instances, two claims at once).
struct RatedResult {
  std::string game;
  std::string key;
  std::array<RatingRow, 2> after;  // South, North
  std::array<double, 2> change{};  // after - before
  double southScore = 0.5;         // 1 South won, 0 North won, 0.5 draw
  long long at = 0;
};

// A finished (or abandoned) game in a player's history, newest first.
struct PlayedGame {
  GameRow game;
  std::optional<std::array<double, 2>> change;  // the rating changes, South and North, when rated
};

// A wish to play, waiting for an opponent. `game` is empty while open, the game's id once paired.
struct SeekRow {
  std::string id;  // 10 characters of [A-Za-z0-9]
  std::string player;
  std::string rules;  // toString(Rules): the game asked for
  std::string key;    // the rated key when `rated`, else ""
  int clockSeconds = 0;
  int clockIncrement = 0;
  bool rated = false;
  double rating = 1500;  // the seeker's rating when he asked (for pairing by closeness)
  int range = 0;         // lobby seeks: the widest rating difference accepted (0: any)
  bool quick = false;    // quick pairing (widens with waiting) or a lobby seek (anyone accepts)
  long long created = 0;
  std::string game;
};

// Fields of a player shown to others: his row, his account's username ("" for a guest).
struct PlayerCard {
  PlayerRow player;
  std::string username;
};

class ClubStore {
 public:
  virtual ~ClubStore() = default;
  ClubStore() = default;
  ClubStore(const ClubStore&) = delete;
  ClubStore& operator=(const ClubStore&) = delete;

  // Accounts. createAccount is a Conflict when the username's key (a username's or a bot's name's,
  // store/BotStore.hpp) or the player is taken; the player row must exist.
  virtual StoreResult<void> createAccount(const AccountRow& account) = 0;
  virtual StoreResult<std::optional<AccountRow>> accountByUsername(const std::string& usernameKey) = 0;
  virtual StoreResult<std::optional<AccountRow>> accountOf(const std::string& player) = 0;
  // Deletes the account, its sessions, claim codes, seeks, friends and blocks; the player row stays
  // (other players' games name him) renamed `deletedName`; ratings and history are removed; his
  // bots are revoked.
  virtual StoreResult<void> deleteAccount(const std::string& player, const std::string& deletedName) = 0;

  // Sessions: another token for a player (sign-in on a device), or one token revoked (sign-out).
  virtual StoreResult<void> addToken(const std::string& player, const std::string& tokenHash) = 0;
  virtual StoreResult<void> dropToken(const std::string& tokenHash) = 0;

  // Claim codes (a guest moving to another device): stored hashed, taken once before `expires`.
  virtual StoreResult<void> createClaim(const std::string& codeHash, const std::string& player, long long expires) = 0;
  // The player, and the code deleted; nothing when unknown or expired.
  virtual StoreResult<std::optional<std::string>> takeClaim(const std::string& codeHash, long long now) = 0;

  // Ratings.
  virtual StoreResult<std::vector<RatingRow>> ratings(const std::string& player) = 0;
  virtual StoreResult<std::optional<RatingRow>> rating(const std::string& player, const std::string& key) = 0;
  // Both players' rows, the history points and the game's record of it, in one transaction.
  virtual StoreResult<void> applyRated(const RatedResult& result) = 0;
  virtual StoreResult<std::optional<RatedResult>> ratedResult(const std::string& game) = 0;
  // Rated games over since `sinceMs` (their last change), not aborted, with no rated result yet:
  // the ends that were never rated (an instance died, the store failed). Oldest first, `limit`.
  virtual StoreResult<std::vector<std::string>> unratedGames(long long sinceMs, std::size_t limit) = 0;
  // Oldest first, at most `limit` (the newest ones).
  virtual StoreResult<std::vector<RatingPoint>> ratingHistory(const std::string& player, const std::string& key,
                                                              std::size_t limit) = 0;
  // Rows with deviation below `maxDeviation`, best first, with the players' cards.
  virtual StoreResult<std::vector<std::pair<RatingRow, PlayerCard>>> leaderboard(const std::string& key,
                                                                                 double maxDeviation,
                                                                                 std::size_t limit) = 0;
  // Rated games of `key`: how many, and South's total score (first-player advantage).
  virtual StoreResult<std::pair<long long, double>> firstPlayerScore(const std::string& key) = 0;
  // Games over or abandoned in which the player held a seat, newest first, `updated` < `before`.
  virtual StoreResult<std::vector<PlayedGame>> gamesOf(const std::string& player, long long before,
                                                       std::size_t limit) = 0;

  // Seeks. pairSeeks creates `game` (with its first events) and marks both seeks paired with it, or
  // is a Conflict (either seek gone or paired already) and creates nothing.
  virtual StoreResult<void> createSeek(const SeekRow& seek) = 0;
  virtual StoreResult<bool> cancelSeek(const std::string& id, const std::string& player) = 0;
  virtual StoreResult<std::vector<SeekRow>> openSeeks() = 0;
  virtual StoreResult<std::optional<SeekRow>> seek(const std::string& id) = 0;
  virtual StoreResult<void> pairSeeks(const std::string& a, const std::string& b, const GameRow& game,
                                      const std::vector<EventRow>& events) = 0;
  // Open seeks created before `beforeMs` are removed (their seekers left); returns how many.
  virtual StoreResult<long long> expireSeeks(long long beforeMs) = 0;

  // Friends (one way: `player` follows `other`) and blocks (either way stops invitations and pairing).
  virtual StoreResult<void> addFriend(const std::string& player, const std::string& other, long long at) = 0;
  virtual StoreResult<void> removeFriend(const std::string& player, const std::string& other) = 0;
  virtual StoreResult<std::vector<PlayerCard>> friendsOf(const std::string& player) = 0;
  virtual StoreResult<void> block(const std::string& player, const std::string& other, long long at) = 0;
  virtual StoreResult<void> unblock(const std::string& player, const std::string& other) = 0;
  virtual StoreResult<bool> blockedEitherWay(const std::string& a, const std::string& b) = 0;
  virtual StoreResult<std::vector<PlayerCard>> blockedBy(const std::string& player) = 0;

  virtual StoreResult<std::optional<PlayerCard>> card(const std::string& player) = 0;
};

}  // namespace semis::store
