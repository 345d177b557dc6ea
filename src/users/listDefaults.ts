/** What the users list asks for when nothing else was chosen: UserList's, and what firstPage.ts prefetches. */
export const usersListDefaults = { sort: { field: 'id', order: 'ASC' as const }, perPage: 10 };
