#include "store/BotStore.hpp"

#include "store/SqlRunner.hpp"

namespace semis::store {

namespace {

constexpr const char* kBotSelect =
    "SELECT b.player,p.name,b.owner,b.created,b.revoked FROM bots b JOIN players p ON p.id=b.player ";

BotRow botRow(const SqlRow& r) { return BotRow{r.text(0), r.text(1), r.text(2), r.integer(3), r.integer(4)}; }

// Whether `nameKey` is a username's key, or another bot's than `except`'s.
StoreResult<bool> nameTaken(SqlTx& tx, const std::string& nameKey, const std::string& except) {
  auto r = tx.run("SELECT 1 FROM accounts WHERE username_key=$1 UNION ALL "
                  "SELECT 1 FROM bots WHERE name_key=$1 AND player<>$2",
                  {nameKey, except});
  if (!r) return tl::unexpected(r.error());
  return !r->rows.empty();
}

// The owner's bot, read inside a transaction: NotFound, Revoked, or Done.
StoreResult<BotChange> ownBot(SqlTx& tx, const std::string& owner, const std::string& player) {
  auto r = tx.run("SELECT revoked FROM bots WHERE player=$1 AND owner=$2", {player, owner});
  if (!r) return tl::unexpected(r.error());
  if (r->rows.empty()) return BotChange::NotFound;
  return r->rows.front().integer(0) != 0 ? BotChange::Revoked : BotChange::Done;
}

class SqlBots final : public BotStore {
 public:
  explicit SqlBots(SqlRunner& runner) : run_(runner) {}

  StoreResult<BotChange> createBot(const BotRow& b, const std::string& nameKey, const std::string& tokenHash,
                                   int maxPerOwner) override {
    return transact<BotChange>(run_, Access::Write, [&](SqlTx& tx) -> StoreResult<BotChange> {
      // Touching the owner's account row first makes two creations of his at once (PostgreSQL,
      // read committed) wait for each other, so the count below cannot be passed twice; SQLite's
      // writers are one at a time anyway.
      auto member = tx.run("UPDATE accounts SET created=created WHERE player=$1", {b.owner});
      if (!member) return tl::unexpected(member.error());
      if (member->changed == 0) return BotChange::NotAMember;
      auto count = tx.run("SELECT COUNT(*) FROM bots WHERE owner=$1 AND revoked=0", {b.owner});
      if (!count) return tl::unexpected(count.error());
      if (count->rows.front().integer(0) >= maxPerOwner) return BotChange::LimitReached;
      auto taken = nameTaken(tx, nameKey, "");
      if (!taken) return tl::unexpected(taken.error());
      if (*taken) return BotChange::NameTaken;
      if (auto r = tx.run("INSERT INTO players(id,name,created) VALUES($1,$2,$3)", {b.player, b.name, b.created}); !r)
        return tl::unexpected(r.error());
      if (auto r = tx.run("INSERT INTO bots(player,owner,name_key,token_hash,created,revoked) VALUES($1,$2,$3,$4,$5,0)",
                          {b.player, b.owner, nameKey, tokenHash, b.created});
          !r)
        return tl::unexpected(r.error());
      return BotChange::Done;
    });
  }

  StoreResult<std::vector<BotRow>> botsOf(const std::string& owner) override {
    return many(std::string(kBotSelect) + "WHERE b.owner=$1 ORDER BY b.created, b.player", {owner});
  }

  StoreResult<std::optional<BotRow>> botByTokenHash(const std::string& tokenHash) override {
    return one(std::string(kBotSelect) + "WHERE b.token_hash=$1 AND b.revoked=0", tokenHash);
  }
  StoreResult<std::optional<BotRow>> botByName(const std::string& nameKey) override {
    return one(std::string(kBotSelect) + "WHERE b.name_key=$1", nameKey);
  }
  StoreResult<std::optional<BotRow>> bot(const std::string& player) override {
    return one(std::string(kBotSelect) + "WHERE b.player=$1", player);
  }

  StoreResult<BotChange> renameBot(const std::string& owner, const std::string& player, const std::string& name,
                                   const std::string& nameKey) override {
    return transact<BotChange>(run_, Access::Write, [&](SqlTx& tx) -> StoreResult<BotChange> {
      auto own = ownBot(tx, owner, player);
      if (!own || *own != BotChange::Done) return own;
      auto taken = nameTaken(tx, nameKey, player);
      if (!taken) return tl::unexpected(taken.error());
      if (*taken) return BotChange::NameTaken;
      if (auto r = tx.run("UPDATE bots SET name_key=$1 WHERE player=$2", {nameKey, player}); !r)
        return tl::unexpected(r.error());
      if (auto r = tx.run("UPDATE players SET name=$1 WHERE id=$2", {name, player}); !r)
        return tl::unexpected(r.error());
      return BotChange::Done;
    });
  }

  StoreResult<BotChange> newBotToken(const std::string& owner, const std::string& player,
                                     const std::string& tokenHash) override {
    return transact<BotChange>(run_, Access::Write, [&](SqlTx& tx) -> StoreResult<BotChange> {
      auto own = ownBot(tx, owner, player);
      if (!own || *own != BotChange::Done) return own;
      if (auto r = tx.run("UPDATE bots SET token_hash=$1 WHERE player=$2", {tokenHash, player}); !r)
        return tl::unexpected(r.error());
      return BotChange::Done;
    });
  }

  StoreResult<BotChange> revokeBot(const std::string& owner, const std::string& player, long long at) override {
    return transact<BotChange>(run_, Access::Write, [&](SqlTx& tx) -> StoreResult<BotChange> {
      auto own = ownBot(tx, owner, player);
      if (own && *own == BotChange::Revoked) return BotChange::Done;
      if (!own || *own != BotChange::Done) return own;
      if (auto r = tx.run("UPDATE bots SET revoked=$1 WHERE player=$2", {at, player}); !r)
        return tl::unexpected(r.error());
      return BotChange::Done;
    });
  }

 private:
  StoreResult<std::vector<BotRow>> many(const std::string& sql, const std::vector<SqlValue>& params) {
    auto r = run_.run(Access::Read, sql, params);
    if (!r) return tl::unexpected(r.error());
    std::vector<BotRow> out;
    for (const SqlRow& row : r->rows) out.push_back(botRow(row));
    return out;
  }
  StoreResult<std::optional<BotRow>> one(const std::string& sql, const std::string& key) {
    auto rows = many(sql, {key});
    if (!rows) return tl::unexpected(rows.error());
    if (rows->empty()) return std::nullopt;
    return rows->front();
  }

  SqlRunner& run_;
};

}  // namespace

std::unique_ptr<BotStore> makeBotStore(SqlRunner& runner) { return std::make_unique<SqlBots>(runner); }

}  // namespace semis::store
