#pragma once
// Schema version 3, the club's tables (store/ClubStore.hpp), the same text for SQLite and
// PostgreSQL (SQLite takes PostgreSQL's type names by affinity).

namespace semis::store {

inline constexpr const char* kClubSchema = R"SQL(
ALTER TABLE games ADD COLUMN rated integer NOT NULL DEFAULT 0;
CREATE TABLE accounts(player text PRIMARY KEY, username text NOT NULL, username_key text NOT NULL UNIQUE,
  password_hash text NOT NULL, created bigint NOT NULL);
CREATE TABLE claims(code_hash text PRIMARY KEY, player text NOT NULL, expires bigint NOT NULL);
CREATE TABLE ratings(player text NOT NULL, game_key text NOT NULL, rating double precision NOT NULL,
  deviation double precision NOT NULL, volatility double precision NOT NULL, games bigint NOT NULL,
  wins bigint NOT NULL, draws bigint NOT NULL, losses bigint NOT NULL, at bigint NOT NULL,
  PRIMARY KEY(player, game_key));
CREATE INDEX ratings_board ON ratings(game_key, rating);
CREATE TABLE rating_points(player text NOT NULL, game_key text NOT NULL, at bigint NOT NULL,
  rating double precision NOT NULL, deviation double precision NOT NULL, game text NOT NULL);
CREATE INDEX rating_points_by ON rating_points(player, game_key, at);
CREATE TABLE rated_results(game text PRIMARY KEY, game_key text NOT NULL, south_score double precision NOT NULL,
  after_s double precision NOT NULL, after_n double precision NOT NULL, change_s double precision NOT NULL,
  change_n double precision NOT NULL, at bigint NOT NULL);
CREATE INDEX rated_results_key ON rated_results(game_key);
CREATE TABLE seeks(id text PRIMARY KEY, player text NOT NULL, rules text NOT NULL, game_key text NOT NULL,
  clock_seconds integer NOT NULL, clock_increment integer NOT NULL, rated integer NOT NULL,
  rating double precision NOT NULL, rating_range integer NOT NULL, quick integer NOT NULL, created bigint NOT NULL,
  game text NOT NULL);
CREATE INDEX seeks_open ON seeks(game, created);
CREATE TABLE friends(player text NOT NULL, other text NOT NULL, at bigint NOT NULL, PRIMARY KEY(player, other));
CREATE TABLE blocks(player text NOT NULL, other text NOT NULL, at bigint NOT NULL, PRIMARY KEY(player, other));
)SQL";

// Schema version 5, the same text for SQLite and PostgreSQL: sessions described (store/SessionStore.hpp);
// one open seek per player, game and clock (the open seeks of before are dropped: their seekers ask
// again); accounts whose name is still the guest's default are named by their username.
inline constexpr const char* kTrustSchema = R"SQL(
ALTER TABLE tokens ADD COLUMN created bigint NOT NULL DEFAULT 0;
ALTER TABLE tokens ADD COLUMN seen bigint NOT NULL DEFAULT 0;
ALTER TABLE tokens ADD COLUMN device text NOT NULL DEFAULT '';
ALTER TABLE tokens ADD COLUMN address text NOT NULL DEFAULT '';
CREATE INDEX tokens_player ON tokens(player);
DELETE FROM seeks WHERE game='';
CREATE UNIQUE INDEX seeks_one_open ON seeks(player, rules, clock_seconds, clock_increment) WHERE game='';
UPDATE players SET name=(SELECT username FROM accounts WHERE accounts.player=players.id)
  WHERE id IN (SELECT player FROM accounts) AND name='Guest-' || substr(id, 1, 4);
)SQL";

// What deleting an account removes ($1: the player; SQLite reads $1 as one named parameter).
inline constexpr const char* kDeleteAccount[] = {
    "DELETE FROM accounts WHERE player=$1",      "DELETE FROM tokens WHERE player=$1",
    "DELETE FROM claims WHERE player=$1",        "DELETE FROM ratings WHERE player=$1",
    "DELETE FROM rating_points WHERE player=$1", "DELETE FROM seeks WHERE player=$1 AND game=''",
    "DELETE FROM friends WHERE player=$1 OR other=$1", "DELETE FROM blocks WHERE player=$1 OR other=$1"};

}  // namespace semis::store
