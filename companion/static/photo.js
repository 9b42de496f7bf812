// Table Companion: photos of paper. A file input with data-photo-slot (and data-photo-url, where to
// send it) takes a photo with the phone's camera (accept="image/*" capture="environment"), scales
// it on the phone to at most 1280 px and 200 KB, and sends it. The canvas writes a new JPEG of the
// pixels alone: the camera's EXIF, with its GPS coordinates, never leaves the phone (the server
// strips it again all the same). It goes by the page's one way to send a move (app.js's act: kept
// and sent again when the phone is offline), which then shows the screen with the photo. The page's own sentences come with the input
// (data-photo-sending, -sent, -failed, -unreadable: in its language).
(function () {
  "use strict";
  var MAX_SIDE = 1280;      // px: the longest side sent
  var MAX_BYTES = 200 * 1024;
  var QUALITIES = [0.85, 0.75, 0.65, 0.55, 0.45];

  function tell(text, kind) { window.Companion.say(text, kind); }

  function sentence(input, name, fallback) {
    return input.dataset["photo" + name] || fallback;
  }

  // The picture as drawn, upright: browsers apply the EXIF orientation when they decode an image
  // for a canvas (createImageBitmap's default, and an <img>'s image-orientation: from-image).
  function decode(file) {
    if (window.createImageBitmap) {
      return createImageBitmap(file, { imageOrientation: "from-image" }).catch(function () { return viaImage(file); });
    }
    return viaImage(file);
  }

  function viaImage(file) {
    return new Promise(function (resolve, reject) {
      var url = URL.createObjectURL(file);
      var img = new Image();
      img.onload = function () { URL.revokeObjectURL(url); resolve(img); };
      img.onerror = function () { URL.revokeObjectURL(url); reject(new Error("unreadable")); };
      img.src = url;
    });
  }

  function toJpeg(canvas, quality) {
    return new Promise(function (resolve) {
      if (canvas.toBlob) { canvas.toBlob(resolve, "image/jpeg", quality); return; }
      var bytes = atob(canvas.toDataURL("image/jpeg", quality).split(",")[1]);
      var array = new Uint8Array(bytes.length);
      for (var i = 0; i < bytes.length; i++) array[i] = bytes.charCodeAt(i);
      resolve(new Blob([array], { type: "image/jpeg" }));
    });
  }

  // Scaled to MAX_SIDE, then at lower qualities, then smaller again, until it fits MAX_BYTES.
  function shrink(picture) {
    var width = picture.width, height = picture.height;
    if (!width || !height) return Promise.reject(new Error("unreadable"));
    var scale = Math.min(1, MAX_SIDE / Math.max(width, height));
    function attempt(scale, q) {
      var canvas = document.createElement("canvas");
      canvas.width = Math.max(1, Math.round(width * scale));
      canvas.height = Math.max(1, Math.round(height * scale));
      var context = canvas.getContext("2d");
      context.fillStyle = "#fff";  // a transparent picture lies on white paper
      context.fillRect(0, 0, canvas.width, canvas.height);
      context.drawImage(picture, 0, 0, canvas.width, canvas.height);
      return toJpeg(canvas, QUALITIES[q]).then(function (blob) {
        if (!blob) throw new Error("unreadable");
        if (blob.size <= MAX_BYTES || (q === QUALITIES.length - 1 && scale < 0.05)) return blob;
        if (q < QUALITIES.length - 1) return attempt(scale, q + 1);
        return attempt(scale * 0.75, 0);
      });
    }
    return attempt(scale, 0);
  }

  // In the host's privacy cover, the photo is the paper of the player without a phone it shows
  // (act makes it that seat's, from the input).
  function send(input, blob) {
    return window.Companion.act(blob, { url: input.dataset.photoUrl, from: input, quiet: true }).then(function (res) {
      if (res.queued) return res;  // kept: sent when the Wi-Fi is back (app.js)
      if (res.status === 0) throw new TypeError("offline");
      if (!res.ok) throw new Error(res.error || sentence(input, "Failed", "The photo was not sent. Try again."));
      return res;
    });
  }

  function take(input) {
    var file = input.files && input.files[0];
    if (!file) return;
    var label = input.closest("label");
    if (label) label.classList.add("busy");
    input.disabled = true;
    tell(sentence(input, "Sending", "Sending the photo…"), "info");
    decode(file)
      .then(shrink)
      .then(function (blob) { return send(input, blob); })
      .then(function (res) {
        tell(res.queued ? res.error : sentence(input, "Sent", "Photo sent."), "info");
      })
      .catch(function (error) {
        if (error instanceof TypeError) {  // the request itself failed: no network
          tell(sentence(input, "Failed", "The photo was not sent. Try again."));
        } else if (error.message === "unreadable") {  // the browser could not decode it
          tell(sentence(input, "Unreadable", "That photo could not be read. Take it again."));
        } else {
          tell(error.message);  // the server's sentence
        }
      })
      .then(function () {
        input.disabled = false;
        input.value = "";
        if (label) label.classList.remove("busy");
      });
  }

  // Delegated: the live region is replaced at every update, its inputs with it.
  document.addEventListener("change", function (event) {
    var input = event.target;
    if (input && input.matches && input.matches("input[type=file][data-photo-slot]")) take(input);
  });
})();
