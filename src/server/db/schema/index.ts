// The one list drizzle-kit and the client read; every table module is named here.
export * from "./ai.js";
export * from "./api-tokens.js";
export * from "./assessment.js";
export * from "./chat.js";
export * from "./content.js";
export * from "./course-sources.js";
export * from "./courses.js";
export * from "./email.js";
export * from "./knowledge.js";
export * from "./payments.js";
export * from "./personalities.js";
export * from "./sharing.js";
export * from "./throttle.js";
export * from "./tools.js";
export * from "./usage.js";
export * from "./users.js";
