// The google.script.run stand-in injected into the sidebar page: forwards each call to /rpc (the simulator).

/**
 * Browser source of `window.google.script` for a page served by the harness. It follows the documented
 * client rules (apps-script-facts §7): a Proxy runner with withSuccessHandler / withFailureHandler /
 * withUserObject returning a new runner, any function name, arguments checked before sending (Date,
 * function, DOM node or class instance fails the call), failures without a handler go to the console.
 * The server side re-checks arguments and return values through `sim.callFromClient`.
 */
export const CLIENT_SHIM = `
(function () {
  'use strict';
  function illegal(value, path, seen) {
    if (value === null || value === undefined) return null;
    var type = typeof value;
    if (type === 'string' || type === 'number' || type === 'boolean') return null;
    if (type === 'function') return path + ' is a function';
    if (type !== 'object') return path + ' is a ' + type;
    if (Object.prototype.toString.call(value) === '[object Date]') return path + ' is a Date';
    if (typeof Node !== 'undefined' && value instanceof Node) return path + ' is a DOM element';
    if (seen.indexOf(value) >= 0) return path + ' is circular';
    var proto = Object.getPrototypeOf(value);
    if (!Array.isArray(value) && proto !== null && proto !== Object.prototype) return path + ' was built with new';
    seen.push(value);
    var keys = Object.keys(value);
    for (var i = 0; i < keys.length; i++) {
      var inner = illegal(value[keys[i]], path + '.' + keys[i], seen);
      if (inner) return inner;
    }
    seen.pop();
    return null;
  }
  function fail(failure, userObject, name, message) {
    var error = new Error(message);
    error.name = name;
    if (failure) failure(error, userObject);
    else console.error(error);
  }
  function notifyParent(fn) {
    try {
      if (window.parent && window.parent !== window) window.parent.postMessage({ type: 'tas-rpc', fn: fn }, '*');
    } catch (e) {}
  }
  function call(fn, args, success, failure, userObject) {
    for (var i = 0; i < args.length; i++) {
      var problem = illegal(args[i], 'argument ' + i, []);
      if (problem) {
        fail(failure, userObject, 'ClientCallError', 'google.script.run.' + fn + ': ' + problem + ', which google.script.run cannot pass');
        return;
      }
    }
    fetch('/rpc', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ fn: fn, args: args }) })
      .then(function (response) { return response.json(); })
      .then(function (answer) {
        notifyParent(fn);
        if (answer.ok) {
          if (success) success(answer.value, userObject);
        } else {
          fail(failure, userObject, answer.error.name || 'ScriptError', answer.error.message);
        }
      })
      .catch(function (e) {
        fail(failure, userObject, 'NetworkError', 'We are sorry, a server error occurred: ' + (e && e.message));
      });
  }
  function runner(success, failure, userObject) {
    return new Proxy({}, {
      get: function (_target, name) {
        if (name === 'withSuccessHandler') return function (fn) { return runner(fn, failure, userObject); };
        if (name === 'withFailureHandler') return function (fn) { return runner(success, fn, userObject); };
        if (name === 'withUserObject') return function (obj) { return runner(success, failure, obj); };
        if (typeof name !== 'string' || name === 'then') return undefined;
        return function () { call(name, Array.prototype.slice.call(arguments), success, failure, userObject); };
      },
    });
  }
  window.google = {
    script: {
      run: runner(null, null, undefined),
      host: {
        origin: location.origin,
        close: function () {
          fetch('/host/close', { method: 'POST' }).catch(function () {});
          document.body.textContent = '';
        },
        setHeight: function () {},
        setWidth: function () {},
        editor: { focus: function () {} },
      },
    },
  };
})();
`;
