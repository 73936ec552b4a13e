// The rules page is HTML from the server, in the language its address asks for (?lang=) or
// else the browser's. Like the game's pages, it keeps a language chosen in its list for this
// browser, and opens in that language when the address names none.

const KEY = "hg.lang";
const here = new URL(location.href);
const saved = localStorage.getItem(KEY);
if (!here.searchParams.has("lang") && saved && saved !== document.documentElement.lang) {
  here.searchParams.set("lang", saved);
  location.replace(here.href);
}
document.querySelectorAll(".lang-switch a[data-lang]").forEach((link) => {
  link.addEventListener("click", () => localStorage.setItem(KEY, link.dataset.lang));
});
