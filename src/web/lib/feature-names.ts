/**
 * The course feature's one name on every screen (decision 060): the navigation, the dashboard's buttons, the courses
 * page's heading and the marketing lists. The feature's page was already "Course AI Builder"; the nav
 * ("Course AI Dashboard") and the dashboard button ("Course Builder AI") named it three ways.
 */
export const COURSE_FEATURE_NAME = "Course AI Builder";
