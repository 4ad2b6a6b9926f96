/** One plain-SQL migration; `name` is the .sql file name without extension and orders the list. */
export interface Migration {
  name: string;
  sql: string;
}
