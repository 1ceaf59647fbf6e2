#include "store/ContestStore.hpp"

#include "store/SqlRunner.hpp"

namespace semis::store {

namespace {

constexpr const char* kContestSelect =
    "SELECT id,kind,name,owner,rules,status,created,updated,version,body FROM contests ";

ContestRow contestRow(const SqlRow& r) {
  return ContestRow{r.text(0), r.text(1), r.text(2),    r.text(3),    r.text(4),
                    r.text(5), r.integer(6), r.integer(7), r.integer(8), r.text(9)};
}

class SqlContests final : public ContestStore {
 public:
  explicit SqlContests(SqlRunner& runner) : run_(runner) {}

  StoreResult<void> createContest(const ContestRow& c) override {
    auto r = run_.run(Access::Write,
                      "INSERT INTO contests(id,kind,name,owner,rules,status,created,updated,version,body) "
                      "VALUES($1,$2,$3,$4,$5,$6,$7,$8,1,$9)",
                      {c.id, c.kind, c.name, c.owner, c.rules, c.status, c.created, c.updated, c.body});
    if (!r) return tl::unexpected(r.error());
    return {};
  }

  StoreResult<bool> updateContest(const ContestRow& c) override {
    auto r = run_.run(Access::Write,
                      "UPDATE contests SET status=$1,updated=$2,body=$3,version=$4 WHERE id=$5 AND version=$6",
                      {c.status, c.updated, c.body, c.version, c.id, c.version - 1});
    if (!r) return tl::unexpected(r.error());
    return r->changed == 1;
  }

  StoreResult<std::optional<ContestRow>> contest(const std::string& id) override {
    auto rows = many(std::string(kContestSelect) + "WHERE id=$1", {id});
    if (!rows) return tl::unexpected(rows.error());
    if (rows->empty()) return std::nullopt;
    return rows->front();
  }

  StoreResult<std::vector<ContestRow>> recentContests(const std::string& kind, std::size_t limit) override {
    return many(std::string(kContestSelect) + "WHERE kind=$1 ORDER BY created DESC, id LIMIT $2",
                {kind, static_cast<long long>(limit)});
  }

  StoreResult<std::vector<ContestRow>> runningContests(std::size_t limit) override {
    return many(std::string(kContestSelect) + "WHERE status='running' ORDER BY created, id LIMIT $1",
                {static_cast<long long>(limit)});
  }

 private:
  StoreResult<std::vector<ContestRow>> many(const std::string& sql, const std::vector<SqlValue>& params) {
    auto r = run_.run(Access::Read, sql, params);
    if (!r) return tl::unexpected(r.error());
    std::vector<ContestRow> out;
    for (const SqlRow& row : r->rows) out.push_back(contestRow(row));
    return out;
  }

  SqlRunner& run_;
};

}  // namespace

std::unique_ptr<ContestStore> makeContestStore(SqlRunner& runner) { return std::make_unique<SqlContests>(runner); }

}  // namespace semis::store
