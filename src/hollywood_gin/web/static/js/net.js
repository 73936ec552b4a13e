// One WebSocket to the table, reconnecting by itself: the server's state is the only truth,
// so after any break the client just says hello again and draws what it is sent.

import { language } from "./i18n.js";

export class TableConnection {
  constructor(tableId, token, { onState, onAck, onError, onStatus, onFatal, onSeat }) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = { onState, onAck, onError, onStatus, onFatal, onSeat };
    this.ws = null;
    this.rid = 0;
    this.delay = 400;
    this.stopped = false;
    this.timer = null;
    this.status = null;
    this.open();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/${encodeURIComponent(this.tableId)}`;
  }

  /** "connecting", "online" (a state came on this socket), "offline" (retrying). */
  setStatus(status) {
    if (status === this.status) return;
    this.status = status;
    this.handlers.onStatus(status);
  }

  get online() { return this.status === "online"; }

  open() {
    if (this.stopped) return;
    if (!this.ws) this.setStatus("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.addEventListener("open", () => {
      // The seat's language: the server words anything for this seat in it.
      ws.send(JSON.stringify({ type: "hello", token: this.token, v: 1, lang: language() }));
    });
    ws.addEventListener("message", (event) => {
      if (this.ws !== ws) return;
      let frame;
      try { frame = JSON.parse(event.data); } catch { return; }
      if (frame.type === "state") {
        this.delay = 400;
        this.setStatus("online");
        this.handlers.onState(frame);
      } else if (frame.type === "ack") {
        this.handlers.onAck(frame);
      } else if (frame.type === "seat") {
        this.handlers.onSeat(frame);
      } else if (frame.type === "error") {
        if (frame.code === "auth") {
          this.stopped = true;
          this.handlers.onFatal("auth");
        } else {
          this.handlers.onError(frame);
        }
      }
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws || this.stopped) return;
      if (event.code === 1008 || event.code === 4403) {
        this.stopped = true;
        this.handlers.onFatal("refused");
        return;
      }
      this.setStatus("offline");
      this.timer = setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 1.7, 5000);
    });
  }

  /** Send a message; its rid, or null when the socket is not open (nothing was sent). */
  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN || !this.online) return null;
    this.rid += 1;
    this.ws.send(JSON.stringify({ ...message, rid: this.rid }));
    return this.rid;
  }

  act(action, seq) { return this.send({ type: "act", action, seq }); }
  next() { return this.send({ type: "next" }); }
  sync() { return this.send({ type: "sync" }); }
  rematch() { return this.send({ type: "rematch" }); }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}
