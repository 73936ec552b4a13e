// The words for rule options and their values (the options come from the server:
// hollywood_gin.rules.OPTIONS through /api/rules, and every state frame's `rules`).

import { has, t } from "./i18n.js";

export function ruleLabel(name) {
  return has(`rule.${name}`) ? t(`rule.${name}`) : name;
}

export function choiceLabel(name, value) {
  return has(`choice.${name}.${value}`) ? t(`choice.${name}.${value}`) : String(value);
}

/** A rule's value in words: numbers as they are, yes/no, a choice's words. */
export function ruleValue(name, value) {
  if (value === null) return t("value.not_played");
  if (value === true) return t("value.yes");
  if (value === false) return t("value.no");
  if (typeof value === "string") return choiceLabel(name, value);
  return String(value);
}
