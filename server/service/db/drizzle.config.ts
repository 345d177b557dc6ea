import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './server/service/db/schema.ts',
  out: './server/service/db/migrations',
  schemaFilter: ['service'],
});
