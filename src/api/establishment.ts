// Which establishment the app talks to; set once at startup (see configureApi in client.ts).
let establishmentId: number | null = null;

export function setEstablishmentId(id: number): void {
  establishmentId = id;
}

/** The configured establishment, or null before configureApi ran. */
export function getEstablishmentId(): number | null {
  return establishmentId;
}
