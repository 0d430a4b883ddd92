/**
 * The sources Idem imports contacts from. A source name is part of every contact's stream name
 * (`contact-<source>.<sourceId>`), so an unknown one is refused rather than silently starting a new
 * namespace of contacts. `crm` is the default pull source (the sandbox CRM in development); a real
 * CRM is one more name here and one more `contact-source` adapter.
 */
export const CONTACT_SOURCES: readonly string[] = ['crm'];

// Not a `source is string` guard: a false answer would wrongly narrow a string name to never.
export const isKnownSource = (source: string): boolean => CONTACT_SOURCES.includes(source);
