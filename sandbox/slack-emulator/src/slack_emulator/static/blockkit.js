// Block Kit and mrkdwn rendering for the Slack emulator page. Pure DOM building: no network, no state.
// Interactive elements call back into the page through the `ctx` object passed to renderBlocks.
"use strict";

(function () {
  // Built in, no network: every shortcode the bot writes (grep minds_bot for :name:) plus a few common ones.
  const EMOJI = {
    white_check_mark: "✅", bell: "🔔", left_right_arrow: "↔️", frame_with_picture: "🖼️", heavy_check_mark: "✔️", x: "❌", warning: "⚠️", tada: "🎉", eyes: "👀",
    hourglass: "⌛", hourglass_flowing_sand: "⏳", bar_chart: "📊", abacus: "🧮", bulb: "💡", rocket: "🚀",
    thumbsup: "👍", "+1": "👍", thumbsdown: "👎", memo: "📝", lock: "🔒", clock: "🕐", sparkles: "✨",
    mag: "🔍", busts_in_silhouette: "👥", page_facing_up: "📄", information_source: "ℹ️", no_entry: "⛔",
    heavy_multiplication_x: "✖️", arrows_counterclockwise: "🔄", wastebasket: "🗑️", shield: "🛡️",
    robot_face: "🤖", paperclip: "📎", grey_question: "❔", question: "❓", chart_with_upwards_trend: "📈",
    speech_balloon: "💬", pushpin: "📌", link: "🔗", key: "🔑", hammer_and_wrench: "🛠️", stopwatch: "⏱️",
    checkered_flag: "🏁", // a run that ended, when the channel keeps only that (render/outcome.py)
  };

  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
      else if (key === "className") el.className = value;
      else if (key === "dataset") Object.assign(el.dataset, value);
      else el.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      el.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return el;
  }

  function escapeHtml(text) {
    return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  }

  function emoji(name) {
    return EMOJI[name] || `:${name}:`;
  }

  // Slack sends &amp; &lt; &gt; for literal characters; <...> are links and mentions.
  function unescapeSlack(text) {
    return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  }

  function inlineStyles(html) {
    return html
      .replace(/`([^`\n]+)`/g, "<code>$1</code>")
      .replace(/(^|[\s(])\*([^*\n]+)\*(?=$|[\s).,!?:;])/g, "$1<b>$2</b>")
      .replace(/(^|[\s(])_([^_\n]+)_(?=$|[\s).,!?:;])/g, "$1<i>$2</i>")
      .replace(/(^|[\s(])~([^~\n]+)~(?=$|[\s).,!?:;])/g, "$1<s>$2</s>")
      .replace(/:([a-z0-9_+-]+):/g, (m, name) => (EMOJI[name] ? EMOJI[name] : m));
  }

  function linkHtml(inner, ctx) {
    const [target, label] = inner.split("|", 2);
    if (target.startsWith("@")) {
      const user = (ctx.users || []).find((u) => u.id === target.slice(1));
      return `<span class="mention">@${escapeHtml(label || (user ? user.name : target.slice(1)))}</span>`;
    }
    if (target.startsWith("#")) {
      const channel = (ctx.channels || []).find((c) => c.id === target.slice(1));
      return `<span class="mention">#${escapeHtml(label || (channel ? channel.name : target.slice(1)))}</span>`;
    }
    if (target.startsWith("!date^")) return dateHtml(inner, ctx);
    if (target.startsWith("!")) return `<span class="mention">@${escapeHtml(target.slice(1).split("^")[0])}</span>`;
    const url = unescapeSlack(target);
    const safe = /^(https?:|mailto:|\/)/i.test(url) ? url : "#";
    return `<a href="${escapeHtml(safe)}" target="_blank" rel="noopener noreferrer">${escapeHtml(unescapeSlack(label || target))}</a>`;
  }

  // <!date^unix^format|fallback> and <!date^unix^format^link|fallback>, as Slack shows it: the format's tokens in
  // the reader's time zone and language ({date_short_pretty} says "Today"…); any unknown token, or a malformed
  // date, shows the fallback text instead.
  const DATE_TOKENS = {
    date_num: (d, o) => fmt(d, o, { year: "numeric", month: "2-digit", day: "2-digit" }),
    date: (d, o) => fmt(d, o, { year: "numeric", month: "long", day: "numeric" }),
    date_short: (d, o) => fmt(d, o, { year: "numeric", month: "short", day: "numeric" }),
    date_long: (d, o) => fmt(d, o, { weekday: "long", year: "numeric", month: "long", day: "numeric" }),
    date_pretty: (d, o) => pretty(d, o) || DATE_TOKENS.date(d, o),
    date_short_pretty: (d, o) => pretty(d, o) || DATE_TOKENS.date_short(d, o),
    date_long_pretty: (d, o) => pretty(d, o) || DATE_TOKENS.date_long(d, o),
    time: (d, o) => fmt(d, o, { hour: "numeric", minute: "2-digit" }),
    time_secs: (d, o) => fmt(d, o, { hour: "numeric", minute: "2-digit", second: "2-digit" }),
    ago: (d, o) => ago(d, o),
  };

  function fmt(date, viewer, options) {
    try {
      return new Intl.DateTimeFormat(viewer.locale || "en-US", { timeZone: viewer.tz || "UTC", ...options }).format(date);
    } catch (error) {
      return new Intl.DateTimeFormat("en-US", { timeZone: "UTC", ...options }).format(date);
    }
  }

  function calendarDay(date, viewer) {
    const parts = new Intl.DateTimeFormat("en-CA", { timeZone: viewer.tz || "UTC", year: "numeric", month: "2-digit", day: "2-digit" })
      .format(date).split("-").map(Number);
    return Date.UTC(parts[0], parts[1] - 1, parts[2]) / 864e5;
  }

  function pretty(date, viewer) {
    const offset = calendarDay(date, viewer) - calendarDay(new Date(), viewer);
    if (Math.abs(offset) > 1) return null;
    try {
      const words = new Intl.RelativeTimeFormat(viewer.locale || "en-US", { numeric: "auto" }).format(offset, "day");
      return words.charAt(0).toUpperCase() + words.slice(1);
    } catch (error) {
      return ["Yesterday", "Today", "Tomorrow"][offset + 1];
    }
  }

  function ago(date, viewer) {
    const seconds = Math.round((date.getTime() - Date.now()) / 1000);
    const units = [["year", 31536000], ["month", 2592000], ["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];
    const [unit, size] = units.find(([, s]) => Math.abs(seconds) >= s) || ["second", 1];
    return new Intl.RelativeTimeFormat(viewer.locale || "en-US", { numeric: "auto" }).format(Math.round(seconds / size), unit);
  }

  function formatDate(inner, viewer) {
    const [spec, fallback] = [inner.slice(0, inner.indexOf("|") < 0 ? inner.length : inner.indexOf("|")),
      inner.indexOf("|") < 0 ? "" : inner.slice(inner.indexOf("|") + 1)];
    const [, unix, format, link] = spec.split("^");
    const seconds = Number(unix);
    if (!unix || !Number.isFinite(seconds) || format === undefined) return { text: unescapeSlack(fallback), link: null };
    const date = new Date(seconds * 1000);
    let unknown = false;
    const text = unescapeSlack(format).replace(/\{([a-z_]+)\}/g, (m, token) => {
      if (!DATE_TOKENS[token]) { unknown = true; return m; }
      return DATE_TOKENS[token](date, viewer);
    });
    return { text: unknown ? unescapeSlack(fallback) : text, link: link ? unescapeSlack(link) : null };
  }

  function dateHtml(inner, ctx) {
    const { text, link } = formatDate(inner, ctx.viewer || {});
    const safe = link && /^https?:/i.test(link) ? link : null;
    const body = `<time class="slack-date">${escapeHtml(text)}</time>`;
    return safe ? `<a href="${escapeHtml(safe)}" target="_blank" rel="noopener noreferrer">${body}</a>` : body;
  }

  // mrkdwn -> safe HTML: everything is escaped first; only our own tags are added.
  function mrkdwn(text, ctx) {
    ctx = ctx || {};
    const parts = [];
    const fences = String(text || "").split("```");
    fences.forEach((chunk, index) => {
      if (index % 2 === 1) {
        parts.push(`<pre>${escapeHtml(unescapeSlack(chunk))}</pre>`);
        return;
      }
      const lines = chunk.split("\n").map((line) => {
        let html = "";
        let rest = line;
        let quote = false;
        if (rest.startsWith("&gt; ") || rest.startsWith("> ")) {
          quote = true;
          rest = rest.replace(/^(&gt;|>) /, "");
        }
        const pattern = /<([^<>]+)>/g;
        let last = 0;
        let match;
        while ((match = pattern.exec(rest)) !== null) {
          html += inlineStyles(escapeHtml(unescapeSlack(rest.slice(last, match.index))));
          html += linkHtml(match[1], ctx);
          last = match.index + match[0].length;
        }
        html += inlineStyles(escapeHtml(unescapeSlack(rest.slice(last))));
        return quote ? `<blockquote>${html}</blockquote>` : html;
      });
      parts.push(lines.join("<br>"));
    });
    return parts.join("");
  }

  function textNode(obj, ctx) {
    if (!obj) return h("span");
    const span = h("span");
    if (obj.type === "mrkdwn") span.innerHTML = mrkdwn(obj.text, ctx);
    else span.textContent = obj.emoji === false ? obj.text : String(obj.text || "").replace(/:([a-z0-9_+-]+):/g, (m, n) => (EMOJI[n] ? EMOJI[n] : m));
    return span;
  }

  function plain(obj) {
    return obj && obj.text ? String(obj.text) : "";
  }

  function imageNode(obj, className) {
    const url = obj.image_url || (obj.slack_file && obj.slack_file.url) || "";
    // Only the emulator's own files load; anything else would reach the network.
    if (url.startsWith(window.location.origin) || url.startsWith("/")) {
      return h("img", { src: url, alt: obj.alt_text || "", className });
    }
    return h("div", { className: "bk-image-placeholder", title: url }, "🖼 ", obj.alt_text || "image", " ",
      url ? h("a", { href: url, target: "_blank", rel: "noopener noreferrer" }, "(open)") : null);
  }

  // ---- elements

  function optionsOf(element) {
    const options = [...(element.options || [])];
    for (const group of element.option_groups || []) options.push(...(group.options || []));
    return options;
  }

  function selectNode(items, { placeholder, initial, onchange, multiple }) {
    const select = h("select", { onchange, multiple });
    if (!multiple) select.append(h("option", { value: "" }, placeholder || "Select…"));
    for (const item of items) {
      select.append(h("option", { value: item.value, selected: initial && [].concat(initial).includes(item.value) }, item.label));
    }
    return select;
  }

  function userItems(ctx) {
    return (ctx.users || []).map((u) => ({ value: u.id, label: u.real_name }));
  }

  function channelItems(ctx) {
    return (ctx.channels || []).filter((c) => !c.is_im).map((c) => ({ value: c.id, label: `${c.is_private ? "🔒" : "#"}${c.name}` }));
  }

  function optionItems(element) {
    return optionsOf(element).map((o) => ({ value: o.value, label: plain(o.text) }));
  }

  function initialOf(element) {
    if (element.initial_option) return element.initial_option.value;
    if (element.initial_options) return element.initial_options.map((o) => o.value);
    return element.initial_user || element.initial_conversation || element.initial_channel || element.initial_users
      || element.initial_conversations || element.initial_channels || null;
  }

  // Checkboxes and radio buttons, ticked as the element's initial_options/initial_option say. `onchange` gets the
  // ticked values (a list for checkboxes, one value or null for radio buttons).
  function choiceGroup(element, name, ctx, onchange) {
    const kind = element.type === "checkboxes" ? "checkbox" : "radio";
    const initial = [].concat(initialOf(element) || []);
    const group = h("div", { className: `bk-${element.type}`, role: kind === "checkbox" ? "group" : "radiogroup" });
    const read = () => {
      const ticked = [...group.querySelectorAll("input:checked")].map((i) => i.value);
      return kind === "checkbox" ? ticked : ticked[0] || null;
    };
    for (const o of optionsOf(element)) {
      const box = h("input", { type: kind, name, value: o.value, style: "width:auto", checked: initial.includes(o.value) });
      if (onchange) box.addEventListener("change", () => onchange(read()));
      group.append(h("label", { className: "bk-choice", style: "display:block;font-weight:400" }, box, " ",
        textNode(o.text, ctx), o.description ? h("span", { className: "hint" }, " ", plain(o.description)) : null));
    }
    return group;
  }

  function externalSelect(block, element, ctx, onChoose) {
    // As Slack's client: what is typed goes to the app (block_suggestion), whose options are offered; the options
    // chosen are kept whole (Slack sends the option objects back). Several may be chosen in a multi_external_select.
    const multiple = element.type === "multi_external_select";
    const wrap = h("div", { className: "external-select" });
    let chosen = multiple ? [...(element.initial_options || [])] : element.initial_option ? [element.initial_option] : [];
    const select = selectNode(chosen.map((o) => ({ value: o.value, label: plain(o.text) })), {
      placeholder: plain(element.placeholder) || "Search…",
      initial: chosen.map((o) => o.value), multiple,
    });
    select.setAttribute("aria-label", plain(element.placeholder) || "Options");
    let offered = chosen;
    const keep = () => { select.dataset.option = multiple ? JSON.stringify(chosen) : chosen.length ? JSON.stringify(chosen[0]) : ""; };
    keep();
    select.addEventListener("change", () => {
      const picked = [...select.selectedOptions].map((s) => offered.find((o) => o.value === s.value)).filter(Boolean);
      chosen = multiple ? picked : picked.slice(0, 1);
      keep();
      if (chosen.length && onChoose) onChoose(multiple ? chosen : chosen[0]);
    });
    const query = h("input", { type: "search", placeholder: "Type to search", "aria-label": "Search options" });
    const search = async () => {
      const found = await ctx.onOptions(block, element, query.value);
      const kept = multiple ? chosen.filter((c) => !found.some((o) => o.value === c.value)) : [];
      offered = [...kept, ...found];
      const head = multiple ? [] : [h("option", { value: "" }, found.length ? "Choose…" : "No matches")];
      select.replaceChildren(...head, ...offered.map((o) => h("option", {
        value: o.value, selected: multiple && chosen.some((c) => c.value === o.value),
      }, plain(o.text))));
      wrap.dataset.offered = String(found.length);
    };
    query.addEventListener("keydown", (event) => { if (event.key === "Enter") { event.preventDefault(); search(); } });
    wrap.append(query, h("button", { type: "button", onclick: search }, "Search"), select);
    wrap.dataset.role = "external";
    return wrap;
  }

  function keptAsInitial(element, kept) {
    const byValue = (v) => (typeof v === "object" && v ? v : optionsOf(element).find((o) => o.value === v) || { value: v, text: { type: "plain_text", text: v } });
    switch (element.type) {
      case "checkboxes": case "multi_static_select": case "multi_external_select":
        return { initial_options: [].concat(kept || []).map(byValue) };
      case "static_select": case "radio_buttons": case "external_select":
        return { initial_option: kept === null ? undefined : byValue(kept) };
      case "datepicker": return { initial_date: kept };
      case "timepicker": return { initial_time: kept };
      case "users_select": return { initial_user: kept };
      case "conversations_select": return { initial_conversation: kept };
      case "channels_select": return { initial_channel: kept };
      default: return {};
    }
  }

  // An element inside a message/actions/section: acts immediately (Slack dispatches block_actions).
  function actionElement(block, element, ctx) {
    // What this person already chose here survives the page's redraws, as in Slack's client.
    const kept = ctx.chosen ? ctx.chosen(block, element) : undefined;
    if (kept !== undefined) element = { ...element, ...keptAsInitial(element, kept) };
    const fire = (selection) => ctx.onAction(block, element, selection);
    switch (element.type) {
      case "button": {
        const cls = ["bk-button", element.style].filter(Boolean).join(" ");
        return h("button", {
          type: "button", className: cls,
          onclick: async (event) => {
            const target = event.currentTarget; // gone once the handler awaits
            if (element.confirm && !(await ctx.confirm(element.confirm))) return;
            if (element.url) window.open(element.url, "_blank", "noopener");
            target.disabled = true;
            try { await fire(null); } finally { target.disabled = false; }
          },
        }, textNode(element.text, ctx));
      }
      case "static_select":
      case "overflow": {
        const placeholder = element.type === "overflow" ? "⋯" : plain(element.placeholder);
        return selectNode(optionItems(element), {
          placeholder, initial: element.type === "overflow" ? null : initialOf(element),
          onchange: async (event) => {
            const value = event.target.value;
            if (!value) return;
            if (element.confirm && !(await ctx.confirm(element.confirm))) return;
            fire(value);
          },
        });
      }
      case "users_select":
      case "conversations_select":
      case "channels_select": {
        const items = element.type === "users_select" ? userItems(ctx) : channelItems(ctx);
        return selectNode(items, {
          placeholder: plain(element.placeholder), initial: initialOf(element),
          onchange: (event) => event.target.value && fire(event.target.value),
        });
      }
      case "multi_static_select":
        return selectNode(optionItems(element), {
          placeholder: plain(element.placeholder), initial: initialOf(element), multiple: true,
          onchange: (event) => fire([...event.target.selectedOptions].map((o) => o.value)),
        });
      case "external_select":
      case "multi_external_select":
        return externalSelect(block, element, ctx, (option) => fire(option));
      case "checkboxes":
      case "radio_buttons":
        return choiceGroup(element, `${block.block_id}/${element.action_id}`, ctx, (value) => fire(value));
      case "datepicker":
        return h("input", { type: "date", value: element.initial_date, "aria-label": plain(element.placeholder) || "Date",
          onchange: (e) => e.target.value && fire(e.target.value) });
      case "timepicker":
        return h("input", { type: "time", value: element.initial_time, "aria-label": plain(element.placeholder) || "Time",
          onchange: (e) => e.target.value && fire(e.target.value) });
      case "image":
        return imageNode(element, "bk-image");
      default:
        return h("span", { className: "empty" }, `[${element.type}]`);
    }
  }

  // An element inside an input block: holds a value until Submit (unless dispatch_action).
  function inputElement(block, element, ctx) {
    const key = `${block.block_id}/${element.action_id}`;
    let node;
    switch (element.type) {
      case "plain_text_input":
      case "number_input":
      case "email_text_input":
      case "url_text_input": {
        const common = {
          placeholder: plain(element.placeholder), maxlength: element.max_length, minlength: element.min_length,
        };
        node = element.multiline
          ? h("textarea", { rows: 4, ...common })
          : h("input", { type: { number_input: "number", email_text_input: "email", url_text_input: "url" }[element.type] || "text", ...common });
        node.value = element.initial_value || "";
        break;
      }
      case "static_select":
      case "multi_static_select":
        node = selectNode(optionItems(element), {
          placeholder: plain(element.placeholder), initial: initialOf(element), multiple: element.type.startsWith("multi_"),
        });
        break;
      case "users_select":
      case "multi_users_select":
        node = selectNode(userItems(ctx), { placeholder: plain(element.placeholder), initial: initialOf(element), multiple: element.type.startsWith("multi_") });
        break;
      case "conversations_select":
      case "channels_select":
      case "multi_conversations_select":
      case "multi_channels_select":
        node = selectNode(channelItems(ctx), { placeholder: plain(element.placeholder), initial: initialOf(element), multiple: element.type.startsWith("multi_") });
        break;
      case "external_select":
      case "multi_external_select":
        node = externalSelect(block, element, ctx, null);
        break;
      case "datepicker":
        node = h("input", { type: "date", value: element.initial_date });
        break;
      case "timepicker":
        node = h("input", { type: "time", value: element.initial_time });
        break;
      case "checkboxes":
      case "radio_buttons":
        node = choiceGroup(element, key, ctx, null);
        break;
      default:
        node = h("span", { className: "empty" }, `[${element.type}]`);
    }
    node.dataset.inputKey = key;
    node.dataset.inputType = element.type;
    if (block.dispatch_action && ctx.onAction) {
      node.addEventListener("change", () => ctx.onAction(block, element, readInput(node)));
    }
    return node;
  }

  function readInput(node) {
    const type = node.dataset.inputType;
    if (type === "external_select" || type === "multi_external_select") {
      const select = node.querySelector("select");
      return select.dataset.option ? JSON.parse(select.dataset.option) : null;
    }
    if (type === "checkboxes") return [...node.querySelectorAll("input:checked")].map((i) => i.value);
    if (type === "radio_buttons") { const c = node.querySelector("input:checked"); return c ? c.value : null; }
    if (node.multiple) return [...node.selectedOptions].map((o) => o.value);
    return node.value === "" ? null : node.value;
  }

  // ---- rich text

  function richInline(el, ctx) {
    const style = el.style || {};
    let node;
    switch (el.type) {
      case "text": node = h("span", {}, el.text); break;
      case "link": node = h("a", { href: /^https?:/i.test(el.url) ? el.url : "#", target: "_blank", rel: "noopener noreferrer" }, el.text || el.url); break;
      case "user": {
        const user = (ctx.users || []).find((u) => u.id === el.user_id);
        node = h("span", { className: "mention" }, "@", user ? user.name : el.user_id); break;
      }
      case "channel": {
        const channel = (ctx.channels || []).find((c) => c.id === el.channel_id);
        node = h("span", { className: "mention" }, "#", channel ? channel.name : el.channel_id); break;
      }
      case "emoji": node = h("span", {}, el.unicode ? String.fromCodePoint(...el.unicode.split("-").map((c) => parseInt(c, 16))) : emoji(el.name)); break;
      case "usergroup": node = h("span", { className: "mention" }, "@", el.usergroup_id); break;
      case "broadcast": node = h("span", { className: "mention" }, "@", el.range); break;
      default: node = h("span", {}, "");
    }
    if (style.code) node = h("code", {}, node);
    if (style.bold) node = h("b", {}, node);
    if (style.italic) node = h("i", {}, node);
    if (style.strike) node = h("s", {}, node);
    return node;
  }

  function richElement(el, ctx) {
    const inlines = () => (el.elements || []).map((child) => richInline(child, ctx));
    switch (el.type) {
      case "rich_text_section": return h("div", {}, inlines());
      case "rich_text_preformatted": return h("pre", {}, inlines());
      case "rich_text_quote": return h("blockquote", {}, inlines());
      case "rich_text_list": {
        const list = h(el.style === "ordered" ? "ol" : "ul");
        for (const item of el.elements || []) list.append(h("li", {}, richElement(item, ctx)));
        return list;
      }
      default: return h("div");
    }
  }

  // ---- blocks

  function renderBlock(block, ctx) {
    const wrap = (cls, ...children) => h("div", { className: `bk-block ${cls}`, dataset: { blockId: block.block_id || "" } }, ...children);
    switch (block.type) {
      case "section": {
        const text = h("div", { className: "bk-text" }, block.text ? textNode(block.text, ctx) : null,
          block.fields ? h("div", { className: "bk-fields" }, block.fields.map((f) => h("div", {}, textNode(f, ctx)))) : null);
        return wrap("bk-section", text, block.accessory ? actionElement(block, block.accessory, ctx) : null);
      }
      case "header": return wrap("bk-header", textNode(block.text, ctx));
      case "divider": return h("hr", { className: "bk-divider" });
      case "context":
        return wrap("bk-context", (block.elements || []).map((el) => (el.type === "image" ? imageNode(el) : textNode(el, ctx))));
      case "image":
        return wrap("bk-image-block", block.title ? h("div", { className: "meta" }, plain(block.title)) : null, imageNode(block, "bk-image"));
      case "actions":
        return wrap("bk-actions", (block.elements || []).map((el) => actionElement(block, el, ctx)));
      case "rich_text": return wrap("bk-rich-text", (block.elements || []).map((el) => richElement(el, ctx)));
      case "markdown": { const div = wrap("bk-markdown"); div.innerHTML = mrkdwn(block.text, ctx); return div; }
      case "input": {
        const error = (ctx.errors || {})[block.block_id];
        return wrap("bk-input",
          h("label", {}, plain(block.label), block.optional ? h("span", { className: "optional" }, " (optional)") : null),
          inputElement(block, block.element, ctx),
          block.hint ? h("div", { className: "hint" }, plain(block.hint)) : null,
          h("div", { className: "error input-error" }, error || ""));
      }
      default: return wrap("bk-unknown", h("span", { className: "empty" }, `[unsupported block: ${block.type}]`));
    }
  }

  function renderBlocks(blocks, ctx) {
    return h("div", { className: "bk-blocks" }, (blocks || []).map((block) => renderBlock(block, ctx)));
  }

  // Values of every input block under `root`, keyed "block_id/action_id" as the emulator expects.
  function collectInputs(root) {
    const values = {};
    for (const node of root.querySelectorAll("[data-input-key]")) {
      const value = readInput(node);
      if (value !== null && !(Array.isArray(value) && value.length === 0)) values[node.dataset.inputKey] = value;
    }
    return values;
  }

  window.BlockKit = { h, mrkdwn, renderBlocks, collectInputs, plain, emoji, formatDate };
})();
