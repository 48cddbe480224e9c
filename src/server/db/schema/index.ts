// The one list drizzle-kit and the client read; every table module is named here.
export * from "./content.js";
export * from "./users.js";
