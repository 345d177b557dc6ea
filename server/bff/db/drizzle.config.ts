import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './server/bff/db/schema.ts',
  out: './server/bff/db/migrations',
  schemaFilter: ['bff'],
});
