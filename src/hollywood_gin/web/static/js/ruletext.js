// The words for the values of choice options (the options themselves, with their labels,
// come from the server: hollywood_gin.rules.OPTIONS through /api/rules).

import { has, t } from "./i18n.js";

export function choiceLabel(name, value) {
  return has(`choice.${name}.${value}`) ? t(`choice.${name}.${value}`) : String(value);
}
