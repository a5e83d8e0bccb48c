// @screen-service/postgres: Screen Service on PostgreSQL (the scale path; the embedded default stays SQLite).
export {};
