/** Timestamps are ISO-8601 text (UTC): they sort and compare the same on SQLite and PostgreSQL. */
export interface UsersTable {
  id: string;
  name: string;
  username: string;
  password_hash: string;
  role: 'ADMIN' | 'USER';
  /** Tokens issued before this instant (epoch seconds) are refused: set when a password is reset. */
  tokens_valid_after: number;
  created_at: string;
  updated_at: string;
}

export interface PasswordResetsTable {
  id: string;
  user_id: string;
  token_hash: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface DB {
  users: UsersTable;
  password_resets: PasswordResetsTable;
}
