// Keys that arrive before the scanner UI is ready to take them (the page is still loading, signing
// in, or switching views) are kept here and handed to the scan capture when it starts, so the first
// scan after a reload is never cut short. A plain script loaded in <head>, so it listens before the
// app's bundle has even been fetched; the capture (renderer/src/scan/scan-capture.ts) turns it off
// while it listens itself.
(function () {
  // startedAt: keys before this moment were lost (nothing listened), so a scan that began within a
  // key's gap of it may be missing its first characters.
  var store = { keys: [], listening: true, startedAt: performance.now() };
  window.barcodeInventoryEarlyKeys = store;
  window.addEventListener(
    'keydown',
    function (event) {
      if (!store.listening || event.isComposing) return;
      store.keys.push({
        key: event.key,
        code: event.code,
        timeStamp: event.timeStamp,
        shiftKey: event.shiftKey,
        ctrlKey: event.ctrlKey,
        altKey: event.altKey,
        metaKey: event.metaKey,
        altGraph: event.getModifierState('AltGraph'),
      });
      if (store.keys.length > 256) store.keys.shift();
    },
    true,
  );
})();
