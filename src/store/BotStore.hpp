#pragma once
// Bot accounts (docs/bots.md): a bot is a player (a row in `players`, so it sits in games and has
// ratings and a profile) that a member owns, which connects with a token of its own instead of a
// cookie. The token is kept only as its hash (accounts::hashToken), like a session's; a revoked bot
// keeps its player row, games and ratings, but its token opens nothing. Reached through
// Store::bots().
//
// A bot's name is its player row's name, unique among bots' names and members' usernames whatever
// the case: the caller computes the key (accounts::usernameKey) as it does for usernames.
//
// Its statements are the same text on both backends: one implementation (BotStore.cpp) runs them
// through a backend's SqlRunner (store/SqlRunner.hpp).

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "store/Store.hpp"

namespace semis::store {

struct BotRow {
  std::string player;  // the bot's player id
  std::string name;    // its player row's name
  std::string owner;   // the member's player id
  long long created = 0;  // unix ms
  long long revoked = 0;  // unix ms, 0 while it may connect
};

// What createBot and renameBot did: done, or why not (nothing changed then).
enum class BotChange { Done, NameTaken, LimitReached, NotFound, Revoked, NotAMember };

class BotStore {
 public:
  virtual ~BotStore() = default;
  BotStore() = default;
  BotStore(const BotStore&) = delete;
  BotStore& operator=(const BotStore&) = delete;

  // The bot's player row and its bot row, in one transaction. Refused (nothing written): NotAMember
  // when `bot.owner` has no account, LimitReached when he has `maxPerOwner` bots not revoked,
  // NameTaken when `nameKey` is a bot's or a username's key. A second writer of the same name at
  // once meets the unique key: Fault::Conflict.
  virtual StoreResult<BotChange> createBot(const BotRow& bot, const std::string& nameKey, const std::string& tokenHash,
                                           int maxPerOwner) = 0;
  // The owner's bots, revoked ones too, oldest first.
  virtual StoreResult<std::vector<BotRow>> botsOf(const std::string& owner) = 0;
  // The bot this token hash opens: none when unknown or revoked.
  virtual StoreResult<std::optional<BotRow>> botByTokenHash(const std::string& tokenHash) = 0;
  // By its name's key, revoked or not (a revoked bot keeps its name and profile).
  virtual StoreResult<std::optional<BotRow>> botByName(const std::string& nameKey) = 0;
  // By its player id, revoked or not; none for a person.
  virtual StoreResult<std::optional<BotRow>> bot(const std::string& player) = 0;
  // The owner's bot renamed (its player row too): NotFound (no such bot of his), Revoked, NameTaken.
  virtual StoreResult<BotChange> renameBot(const std::string& owner, const std::string& player, const std::string& name,
                                           const std::string& nameKey) = 0;
  // A new token for the owner's bot (the old one stops working): NotFound, Revoked.
  virtual StoreResult<BotChange> newBotToken(const std::string& owner, const std::string& player,
                                             const std::string& tokenHash) = 0;
  // The owner's bot revoked at `at` (its token opens nothing; its name stays taken). Revoking a
  // revoked bot is Done and keeps its first time. NotFound when it is not his.
  virtual StoreResult<BotChange> revokeBot(const std::string& owner, const std::string& player, long long at) = 0;
};

class SqlRunner;
[[nodiscard]] std::unique_ptr<BotStore> makeBotStore(SqlRunner& runner);

// Schema version 6, the same text for SQLite and PostgreSQL.
inline constexpr const char* kBotSchema = R"SQL(
CREATE TABLE bots(player text PRIMARY KEY, owner text NOT NULL, name_key text NOT NULL UNIQUE,
  token_hash text NOT NULL UNIQUE, created bigint NOT NULL, revoked bigint NOT NULL DEFAULT 0);
CREATE INDEX bots_owner ON bots(owner, created);
)SQL";

}  // namespace semis::store
