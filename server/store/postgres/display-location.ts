// How a PostgreSQL location is shown, apart from the driver (see schema-needs.ts).

/** The location as people see it: the URL without its password. */
export function displayLocation(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(unreadable URL)';
  }
}
