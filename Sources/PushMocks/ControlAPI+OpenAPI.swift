// The JSON below is a copy of docs/control-api.openapi.json, kept here so a copied binary serves it
// without the repository; ControlAPIOpenAPITests fails until the two are identical. Edit the JSON
// file, then replace the lines between the delimiters with it, indented by 8 spaces (the closing
// delimiter's indentation is not part of the string).

extension ControlAPI {
    /// The OpenAPI 3.1 description of every control route (the shared ones and the OneSignal mock's),
    /// served at `GET /v1/openapi.json`.
    public static let openAPIDocument = #"""
        {
          "openapi": "3.1.0",
          "info": {
            "title": "ringcheck mock control API",
            "version": "1",
            "description": "The control API of the ringcheck mocks (`ringcheck mocks`, every `ringcheck run`), on `RINGCHECK_CONTROL_URL` over plain HTTP/1.1 or h2c: read and clear the pushes the mocks captured, install fault plans, register device tokens, revoke OAuth tokens, set the OneSignal mock's audience. JSON in and out. Errors are `{\"error\": \"...\"}`; validation errors add `\"details\": [\"...\"]`, one entry per problem. A path not listed here is 404; a listed path with another method is 405 with an `Allow` header naming the methods it has; a query parameter an operation does not list is 400 naming it and the accepted ones."
          },
          "servers": [
            {
              "url": "/",
              "description": "the control API serving this document: RINGCHECK_CONTROL_URL (its port is ephemeral unless `--control-port` is given)"
            }
          ],
          "paths": {
            "/v1/health": {
              "get": {
                "operationId": "health",
                "summary": "Liveness and counts",
                "responses": {
                  "200": {
                    "description": "The mocks are up",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Health"
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/UnknownQueryParameter"
                  }
                }
              }
            },
            "/v1/openapi.json": {
              "get": {
                "operationId": "openAPI",
                "summary": "This document",
                "responses": {
                  "200": {
                    "description": "The OpenAPI description of the control API",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object"
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/UnknownQueryParameter"
                  }
                }
              }
            },
            "/v1/captures": {
              "get": {
                "operationId": "listCaptures",
                "summary": "The oldest captures matching the filters",
                "description": "At most `limit` captures, oldest first; `more` is true when further ones match: ask again with `since` set to the last capture's `sequence`. Device tokens, JWTs and access tokens are redacted unless `reveal=true`.",
                "parameters": [
                  {
                    "$ref": "#/components/parameters/mock"
                  },
                  {
                    "$ref": "#/components/parameters/deviceToken"
                  },
                  {
                    "$ref": "#/components/parameters/environment"
                  },
                  {
                    "$ref": "#/components/parameters/since"
                  },
                  {
                    "$ref": "#/components/parameters/sinceMs"
                  },
                  {
                    "$ref": "#/components/parameters/accepted"
                  },
                  {
                    "$ref": "#/components/parameters/reveal"
                  },
                  {
                    "$ref": "#/components/parameters/limit"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The matching captures",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/CaptureList"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "A filter with a bad value, or a query parameter this operation does not take",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                }
              },
              "delete": {
                "operationId": "clearCaptures",
                "summary": "Forget every capture",
                "responses": {
                  "200": {
                    "description": "How many were cleared",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object",
                          "required": [
                            "cleared"
                          ],
                          "properties": {
                            "cleared": {
                              "type": "integer",
                              "minimum": 0,
                              "description": "captures removed"
                            }
                          }
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/UnknownQueryParameter"
                  }
                }
              }
            },
            "/v1/captures/wait": {
              "get": {
                "operationId": "waitForCaptures",
                "summary": "Wait until `count` captures match the filters",
                "parameters": [
                  {
                    "$ref": "#/components/parameters/mock"
                  },
                  {
                    "$ref": "#/components/parameters/deviceToken"
                  },
                  {
                    "$ref": "#/components/parameters/environment"
                  },
                  {
                    "$ref": "#/components/parameters/since"
                  },
                  {
                    "$ref": "#/components/parameters/sinceMs"
                  },
                  {
                    "$ref": "#/components/parameters/accepted"
                  },
                  {
                    "$ref": "#/components/parameters/reveal"
                  },
                  {
                    "$ref": "#/components/parameters/count"
                  },
                  {
                    "$ref": "#/components/parameters/timeoutMs"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "`count` captures matched (`complete: true`)",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/CaptureWait"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "A filter with a bad value, or a query parameter this operation does not take",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "408": {
                    "description": "`timeoutMs` ran out: what matched so far (`complete: false`)",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/CaptureWait"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/v1/faults": {
              "get": {
                "operationId": "listFaults",
                "summary": "The installed fault plans",
                "responses": {
                  "200": {
                    "description": "Every plan with what is left of it",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object",
                          "required": [
                            "faults"
                          ],
                          "properties": {
                            "faults": {
                              "type": "array",
                              "items": {
                                "$ref": "#/components/schemas/InstalledFault"
                              }
                            }
                          }
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/UnknownQueryParameter"
                  }
                }
              },
              "post": {
                "operationId": "installFaults",
                "summary": "Install fault plans, all or nothing",
                "requestBody": {
                  "required": true,
                  "description": "One plan, an array of plans, or `{\"faults\": [...]}`. A plan with the `id` of an installed one replaces it.",
                  "content": {
                    "application/json": {
                      "schema": {
                        "oneOf": [
                          {
                            "$ref": "#/components/schemas/FaultPlan"
                          },
                          {
                            "type": "array",
                            "minItems": 1,
                            "items": {
                              "$ref": "#/components/schemas/FaultPlan"
                            }
                          },
                          {
                            "type": "object",
                            "required": [
                              "faults"
                            ],
                            "additionalProperties": false,
                            "properties": {
                              "faults": {
                                "type": "array",
                                "minItems": 1,
                                "items": {
                                  "$ref": "#/components/schemas/FaultPlan"
                                }
                              }
                            }
                          }
                        ]
                      }
                    }
                  }
                },
                "responses": {
                  "201": {
                    "description": "The plans installed, with their IDs",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object",
                          "required": [
                            "faults"
                          ],
                          "properties": {
                            "faults": {
                              "type": "array",
                              "items": {
                                "$ref": "#/components/schemas/FaultPlan"
                              }
                            }
                          }
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "Not JSON, no plan, or invalid plans (nothing installed); `details` names each bad field",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                }
              },
              "delete": {
                "operationId": "clearFaults",
                "summary": "Remove every fault plan",
                "responses": {
                  "200": {
                    "description": "How many were removed",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object",
                          "required": [
                            "cleared"
                          ],
                          "properties": {
                            "cleared": {
                              "type": "integer",
                              "minimum": 0,
                              "description": "plans removed"
                            }
                          }
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/UnknownQueryParameter"
                  }
                }
              }
            },
            "/v1/faults/{id}": {
              "delete": {
                "operationId": "removeFault",
                "summary": "Remove one fault plan",
                "parameters": [
                  {
                    "name": "id",
                    "in": "path",
                    "required": true,
                    "schema": {
                      "type": "string"
                    },
                    "example": "f1"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "Removed",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Removed"
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/UnknownQueryParameter"
                  },
                  "404": {
                    "description": "No plan has this ID",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/v1/devices": {
              "get": {
                "operationId": "listDevices",
                "summary": "The registered device tokens",
                "responses": {
                  "200": {
                    "description": "Every registered token",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object",
                          "required": [
                            "devices"
                          ],
                          "properties": {
                            "devices": {
                              "type": "array",
                              "items": {
                                "$ref": "#/components/schemas/Device"
                              }
                            }
                          }
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/UnknownQueryParameter"
                  }
                }
              },
              "post": {
                "operationId": "registerDevice",
                "summary": "Register a device token's environment or status",
                "description": "An `unregistered` or `expired` token makes APNs answer 410 and FCM `UNREGISTERED`; `foreignSender` makes FCM answer `SENDER_ID_MISMATCH`; an `environment` makes the other APNs environment answer `BadDeviceToken`.",
                "requestBody": {
                  "required": true,
                  "description": "The token and what the mocks make of it",
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/DeviceRegistration"
                      }
                    }
                  }
                },
                "responses": {
                  "201": {
                    "description": "Registered",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Device"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "Not a JSON object, a missing token, or a bad or unknown field",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                }
              },
              "delete": {
                "operationId": "clearDevices",
                "summary": "Forget every registered token",
                "responses": {
                  "200": {
                    "description": "How many were forgotten",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object",
                          "required": [
                            "cleared"
                          ],
                          "properties": {
                            "cleared": {
                              "type": "integer",
                              "minimum": 0,
                              "description": "tokens forgotten"
                            }
                          }
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/UnknownQueryParameter"
                  }
                }
              }
            },
            "/v1/devices/{token}": {
              "delete": {
                "operationId": "forgetDevice",
                "summary": "Forget one registered token",
                "parameters": [
                  {
                    "name": "token",
                    "in": "path",
                    "required": true,
                    "schema": {
                      "type": "string"
                    },
                    "example": "0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "Forgotten",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Removed"
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/UnknownQueryParameter"
                  },
                  "404": {
                    "description": "The token is not registered",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/v1/oauth/tokens": {
              "delete": {
                "operationId": "revokeOAuthTokens",
                "summary": "Revoke every access token the OAuth mock issued",
                "description": "FCM then answers 401 until the backend gets a new token.",
                "responses": {
                  "200": {
                    "description": "How many were revoked",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object",
                          "required": [
                            "revoked"
                          ],
                          "properties": {
                            "revoked": {
                              "type": "integer",
                              "minimum": 0,
                              "description": "access tokens revoked"
                            }
                          }
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/UnknownQueryParameter"
                  },
                  "404": {
                    "description": "These mocks have no OAuth mock",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/v1/onesignal/apps": {
              "get": {
                "operationId": "oneSignalListApps",
                "summary": "The OneSignal mock's two apps",
                "parameters": [
                  {
                    "$ref": "#/components/parameters/reveal"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "Both apps; their REST API keys only with `reveal=true`",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object",
                          "required": [
                            "apps"
                          ],
                          "properties": {
                            "apps": {
                              "type": "array",
                              "items": {
                                "$ref": "#/components/schemas/OneSignalApp"
                              }
                            }
                          }
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/UnknownQueryParameter"
                  }
                }
              }
            },
            "/v1/onesignal/apps/{app}": {
              "put": {
                "operationId": "oneSignalSetApp",
                "summary": "How an app answers a notification that reaches nobody",
                "parameters": [
                  {
                    "$ref": "#/components/parameters/app"
                  }
                ],
                "requestBody": {
                  "required": true,
                  "description": "The answer to give",
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/OneSignalAppSetting"
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "The app (no key)",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/OneSignalApp"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "Not `{\"emptyAudience\": ...}`, or a query parameter",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "404": {
                    "description": "No such app",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                }
              },
              "patch": {
                "operationId": "oneSignalPatchApp",
                "summary": "The same as PUT",
                "parameters": [
                  {
                    "$ref": "#/components/parameters/app"
                  }
                ],
                "requestBody": {
                  "required": true,
                  "description": "The answer to give",
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/OneSignalAppSetting"
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "The app (no key)",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/OneSignalApp"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "Not `{\"emptyAudience\": ...}`, or a query parameter",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "404": {
                    "description": "No such app",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/v1/onesignal/subscriptions": {
              "get": {
                "operationId": "oneSignalListSubscriptions",
                "summary": "Who the OneSignal mock reaches",
                "responses": {
                  "200": {
                    "description": "Every subscription",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/OneSignalSubscriptionList"
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/UnknownQueryParameter"
                  }
                }
              },
              "put": {
                "operationId": "oneSignalPutSubscriptions",
                "summary": "Set subscriptions, all or nothing",
                "requestBody": {
                  "required": true,
                  "description": "One change, an array, or `{\"subscriptions\": [...]}`; `devices: 0` unsubscribes",
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/OneSignalSubscriptionChanges"
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "Every subscription after the change",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/OneSignalSubscriptionList"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "Invalid changes (none applied); `details` names each problem",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                }
              },
              "post": {
                "operationId": "oneSignalPostSubscriptions",
                "summary": "The same as PUT",
                "requestBody": {
                  "required": true,
                  "description": "One change, an array, or `{\"subscriptions\": [...]}`; `devices: 0` unsubscribes",
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/OneSignalSubscriptionChanges"
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "Every subscription after the change",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/OneSignalSubscriptionList"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "Invalid changes (none applied); `details` names each problem",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                }
              },
              "delete": {
                "operationId": "oneSignalDeleteSubscriptions",
                "summary": "Remove one user's subscriptions, or every one",
                "parameters": [
                  {
                    "name": "externalId",
                    "in": "query",
                    "schema": {
                      "type": "string"
                    },
                    "description": "The user whose subscriptions go; without it every subscription goes"
                  },
                  {
                    "name": "app",
                    "in": "query",
                    "schema": {
                      "type": "string"
                    },
                    "description": "Only in this app: `standard`, `voip` or an App ID (with `externalId`; default both apps)"
                  },
                  {
                    "name": "appId",
                    "in": "query",
                    "schema": {
                      "type": "string"
                    },
                    "description": "The same as `app` (read when `app` is absent)"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "How many were removed",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object",
                          "required": [
                            "cleared"
                          ],
                          "properties": {
                            "cleared": {
                              "type": "integer",
                              "minimum": 0,
                              "description": "subscriptions removed"
                            }
                          }
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/UnknownQueryParameter"
                  },
                  "404": {
                    "description": "No such app",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/v1/onesignal/audience": {
              "delete": {
                "operationId": "oneSignalResetAudience",
                "summary": "Remove every subscription and each app's empty-audience choice",
                "responses": {
                  "200": {
                    "description": "How many subscriptions were removed",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object",
                          "required": [
                            "cleared"
                          ],
                          "properties": {
                            "cleared": {
                              "type": "integer",
                              "minimum": 0,
                              "description": "subscriptions removed"
                            }
                          }
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/UnknownQueryParameter"
                  }
                }
              }
            }
          },
          "components": {
            "parameters": {
              "mock": {
                "name": "mock",
                "in": "query",
                "description": "Only captures of this mock",
                "schema": {
                  "type": "string",
                  "enum": [
                    "apns",
                    "fcm",
                    "oauth",
                    "onesignal"
                  ]
                }
              },
              "deviceToken": {
                "name": "deviceToken",
                "in": "query",
                "description": "Only captures for this APNs device token or FCM registration token (APNs tokens compare case-insensitively)",
                "schema": {
                  "type": "string"
                }
              },
              "environment": {
                "name": "environment",
                "in": "query",
                "description": "Only APNs captures of this environment",
                "schema": {
                  "type": "string",
                  "enum": [
                    "production",
                    "sandbox"
                  ]
                }
              },
              "since": {
                "name": "since",
                "in": "query",
                "description": "Only captures with a greater `sequence`",
                "schema": {
                  "type": "integer"
                }
              },
              "sinceMs": {
                "name": "sinceMs",
                "in": "query",
                "description": "Only captures that arrived at or after this time (ms since the UNIX epoch)",
                "schema": {
                  "type": "integer",
                  "format": "int64"
                }
              },
              "accepted": {
                "name": "accepted",
                "in": "query",
                "description": "`true` or `1`: only captures the mock accepted",
                "schema": {
                  "type": "string",
                  "enum": [
                    "true",
                    "false",
                    "1",
                    "0"
                  ]
                }
              },
              "reveal": {
                "name": "reveal",
                "in": "query",
                "description": "`true` or `1`: show secrets (device tokens, JWTs, access tokens, API keys) instead of redacting them",
                "schema": {
                  "type": "string",
                  "enum": [
                    "true",
                    "false",
                    "1",
                    "0"
                  ]
                }
              },
              "limit": {
                "name": "limit",
                "in": "query",
                "description": "At most this many captures",
                "schema": {
                  "type": "integer",
                  "minimum": 1,
                  "maximum": 10000,
                  "default": 1000
                }
              },
              "count": {
                "name": "count",
                "in": "query",
                "description": "How many matching captures to wait for",
                "schema": {
                  "type": "integer",
                  "minimum": 1,
                  "maximum": 10000,
                  "default": 1
                }
              },
              "timeoutMs": {
                "name": "timeoutMs",
                "in": "query",
                "description": "How long to wait, in ms",
                "schema": {
                  "type": "integer",
                  "minimum": 0,
                  "maximum": 120000,
                  "default": 5000
                }
              },
              "app": {
                "name": "app",
                "in": "path",
                "required": true,
                "description": "`standard`, `voip` or an App ID",
                "schema": {
                  "type": "string"
                },
                "example": "standard"
              }
            },
            "responses": {
              "UnknownQueryParameter": {
                "description": "A query parameter this operation does not take",
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Error"
                    }
                  }
                }
              }
            },
            "schemas": {
              "Error": {
                "type": "object",
                "required": [
                  "error"
                ],
                "properties": {
                  "error": {
                    "type": "string",
                    "description": "What was wrong, every problem joined with `; `"
                  },
                  "details": {
                    "type": "array",
                    "items": {
                      "type": "string"
                    },
                    "description": "Each problem on its own"
                  }
                }
              },
              "Health": {
                "type": "object",
                "required": [
                  "status",
                  "captures",
                  "lastSequence",
                  "faults",
                  "devices"
                ],
                "properties": {
                  "status": {
                    "type": "string",
                    "const": "ok"
                  },
                  "captures": {
                    "type": "integer",
                    "description": "captures held"
                  },
                  "lastSequence": {
                    "type": "integer",
                    "description": "`sequence` of the latest capture (0 before any)"
                  },
                  "faults": {
                    "type": "integer",
                    "description": "fault plans installed"
                  },
                  "devices": {
                    "type": "integer",
                    "description": "device tokens registered"
                  }
                }
              },
              "Capture": {
                "type": "object",
                "description": "One request a mock received and what it answered. Further provider-specific members: `apns` (apnsId, pushType, effectivePushType, topic, priority, expiration, collapseId, providerTokenKeyId), `fcm` (project, target, priority, ttlSeconds, hasNotification, data, validateOnly), `oauthClient`.",
                "required": [
                  "sequence",
                  "arrivalMs",
                  "mock",
                  "method",
                  "target",
                  "headers",
                  "response",
                  "outcome"
                ],
                "properties": {
                  "sequence": {
                    "type": "integer"
                  },
                  "arrivalMs": {
                    "type": "integer",
                    "format": "int64"
                  },
                  "mock": {
                    "type": "string",
                    "enum": [
                      "apns",
                      "fcm",
                      "oauth",
                      "onesignal"
                    ]
                  },
                  "environment": {
                    "type": "string",
                    "enum": [
                      "production",
                      "sandbox"
                    ]
                  },
                  "authority": {
                    "type": [
                      "string",
                      "null"
                    ]
                  },
                  "addressedHost": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "description": "the real host name the request was addressed to when impersonating"
                  },
                  "deviceToken": {
                    "type": [
                      "string",
                      "null"
                    ]
                  },
                  "fcmTarget": {
                    "type": "object",
                    "properties": {
                      "kind": {
                        "type": "string"
                      },
                      "value": {
                        "type": "string"
                      }
                    }
                  },
                  "method": {
                    "type": "string"
                  },
                  "target": {
                    "type": "string"
                  },
                  "httpVersion": {
                    "type": "string"
                  },
                  "connectionId": {
                    "type": "integer"
                  },
                  "streamId": {
                    "type": [
                      "integer",
                      "null"
                    ]
                  },
                  "headers": {
                    "$ref": "#/components/schemas/HeaderList"
                  },
                  "body": {
                    "type": "string",
                    "description": "the request body when it is UTF-8"
                  },
                  "bodyBase64": {
                    "type": "string",
                    "description": "otherwise, base64 (only with `reveal=true`)"
                  },
                  "json": {
                    "description": "the body parsed, when it is JSON"
                  },
                  "response": {
                    "type": "object",
                    "required": [
                      "status",
                      "headers",
                      "sent",
                      "directive"
                    ],
                    "properties": {
                      "status": {
                        "type": "integer"
                      },
                      "headers": {
                        "$ref": "#/components/schemas/HeaderList"
                      },
                      "body": {
                        "type": "string"
                      },
                      "bodyBase64": {
                        "type": "string"
                      },
                      "sent": {
                        "type": "boolean",
                        "description": "false when the connection was reset before the answer left"
                      },
                      "directive": {
                        "description": "`none`, `resetWithoutResponse`, `resetAfterResponse`, `{\"goawayAfterResponse\": {...}}` or `{\"setMaxConcurrentStreams\": N}`"
                      }
                    }
                  },
                  "outcome": {
                    "type": "string",
                    "enum": [
                      "accepted",
                      "rejected"
                    ]
                  },
                  "reason": {
                    "type": [
                      "string",
                      "null"
                    ]
                  },
                  "detail": {
                    "type": [
                      "string",
                      "null"
                    ]
                  },
                  "fault": {
                    "type": [
                      "object",
                      "null"
                    ],
                    "description": "the fault plan applied (its fields and `ordinal`), if any"
                  },
                  "apns": {
                    "type": "object"
                  },
                  "fcm": {
                    "type": "object"
                  },
                  "oauthClient": {
                    "type": "string"
                  }
                }
              },
              "HeaderList": {
                "type": "array",
                "items": {
                  "type": "array",
                  "prefixItems": [
                    {
                      "type": "string"
                    },
                    {
                      "type": "string"
                    }
                  ],
                  "minItems": 2,
                  "maxItems": 2
                },
                "description": "`[name, value]` pairs in the order received"
              },
              "CaptureList": {
                "type": "object",
                "required": [
                  "captures",
                  "lastSequence",
                  "more"
                ],
                "properties": {
                  "captures": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/Capture"
                    }
                  },
                  "lastSequence": {
                    "type": "integer"
                  },
                  "more": {
                    "type": "boolean",
                    "description": "further captures match beyond `limit`"
                  }
                }
              },
              "CaptureWait": {
                "type": "object",
                "required": [
                  "captures",
                  "complete"
                ],
                "properties": {
                  "captures": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/Capture"
                    }
                  },
                  "complete": {
                    "type": "boolean"
                  }
                }
              },
              "FaultPlan": {
                "allOf": [
                  {
                    "$ref": "#/components/schemas/FaultPlanFields"
                  }
                ],
                "unevaluatedProperties": false,
                "description": "A plan as sent: any other field is refused."
              },
              "FaultPlanFields": {
                "type": "object",
                "description": "Without `mock` or `deviceToken` it matches every request; without `times` it applies to all. Give `respond.status` or `respond.reason` (APNs) / `respond.errorCode` (FCM) and the other is filled in.",
                "properties": {
                  "id": {
                    "type": "string",
                    "description": "assigned (`f1`, `f2`, ...) when absent"
                  },
                  "mock": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "enum": [
                      "apns",
                      "fcm",
                      "oauth",
                      "onesignal",
                      null
                    ]
                  },
                  "deviceToken": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "minLength": 1
                  },
                  "times": {
                    "type": [
                      "integer",
                      "null"
                    ],
                    "minimum": 1
                  },
                  "respond": {
                    "type": "object",
                    "additionalProperties": false,
                    "properties": {
                      "status": {
                        "type": "integer",
                        "minimum": 400,
                        "maximum": 599
                      },
                      "reason": {
                        "type": "string",
                        "minLength": 1
                      },
                      "errorCode": {
                        "type": "string"
                      },
                      "message": {
                        "type": "string"
                      }
                    }
                  },
                  "latencyMs": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 120000
                  },
                  "retryAfter": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 86400,
                    "description": "seconds, sent as `Retry-After`"
                  },
                  "connection": {
                    "type": "string",
                    "enum": [
                      "reset",
                      "resetAfterAccept",
                      "goaway"
                    ]
                  },
                  "goawayErrorCode": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 4294967295
                  }
                }
              },
              "InstalledFault": {
                "allOf": [
                  {
                    "$ref": "#/components/schemas/FaultPlanFields"
                  },
                  {
                    "type": "object",
                    "required": [
                      "remaining",
                      "applied"
                    ],
                    "properties": {
                      "remaining": {
                        "type": [
                          "integer",
                          "null"
                        ],
                        "description": "null when the plan has no `times`"
                      },
                      "applied": {
                        "type": "integer"
                      }
                    }
                  }
                ],
                "unevaluatedProperties": false
              },
              "DeviceRegistration": {
                "type": "object",
                "required": [
                  "deviceToken"
                ],
                "additionalProperties": false,
                "properties": {
                  "deviceToken": {
                    "type": "string",
                    "minLength": 1
                  },
                  "environment": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "enum": [
                      "production",
                      "sandbox",
                      null
                    ]
                  },
                  "status": {
                    "type": "string",
                    "enum": [
                      "active",
                      "unregistered",
                      "expired",
                      "foreignSender"
                    ],
                    "default": "active"
                  },
                  "sinceMs": {
                    "type": "integer",
                    "format": "int64",
                    "description": "since when (ms since the UNIX epoch); default now"
                  }
                }
              },
              "Device": {
                "type": "object",
                "required": [
                  "deviceToken",
                  "environment",
                  "status",
                  "sinceMs"
                ],
                "properties": {
                  "deviceToken": {
                    "type": "string"
                  },
                  "environment": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "enum": [
                      "production",
                      "sandbox",
                      null
                    ]
                  },
                  "status": {
                    "type": "string",
                    "enum": [
                      "active",
                      "unregistered",
                      "expired",
                      "foreignSender"
                    ]
                  },
                  "sinceMs": {
                    "type": "integer",
                    "format": "int64"
                  }
                }
              },
              "Removed": {
                "type": "object",
                "required": [
                  "removed"
                ],
                "properties": {
                  "removed": {
                    "type": "string"
                  }
                }
              },
              "OneSignalApp": {
                "type": "object",
                "required": [
                  "role",
                  "appId",
                  "emptyAudience"
                ],
                "properties": {
                  "role": {
                    "type": "string",
                    "enum": [
                      "standard",
                      "voip"
                    ]
                  },
                  "appId": {
                    "type": "string"
                  },
                  "emptyAudience": {
                    "type": "string",
                    "enum": [
                      "notSubscribed",
                      "invalidAliases"
                    ]
                  },
                  "apiKey": {
                    "type": "string",
                    "description": "only with `reveal=true`"
                  }
                }
              },
              "OneSignalAppSetting": {
                "type": "object",
                "required": [
                  "emptyAudience"
                ],
                "additionalProperties": false,
                "properties": {
                  "emptyAudience": {
                    "type": "string",
                    "enum": [
                      "notSubscribed",
                      "invalidAliases"
                    ]
                  }
                }
              },
              "OneSignalSubscription": {
                "type": "object",
                "required": [
                  "appId",
                  "app",
                  "externalId",
                  "devices"
                ],
                "properties": {
                  "appId": {
                    "type": "string"
                  },
                  "app": {
                    "type": [
                      "string",
                      "null"
                    ],
                    "enum": [
                      "standard",
                      "voip",
                      null
                    ]
                  },
                  "externalId": {
                    "type": "string"
                  },
                  "devices": {
                    "type": "integer"
                  }
                }
              },
              "OneSignalSubscriptionList": {
                "type": "object",
                "required": [
                  "subscriptions"
                ],
                "properties": {
                  "subscriptions": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/OneSignalSubscription"
                    }
                  }
                }
              },
              "OneSignalSubscriptionChange": {
                "type": "object",
                "required": [
                  "externalId"
                ],
                "additionalProperties": false,
                "description": "Give `app` or `appId`, not both.",
                "properties": {
                  "app": {
                    "type": "string",
                    "description": "`standard`, `voip` or an App ID"
                  },
                  "appId": {
                    "type": "string"
                  },
                  "externalId": {
                    "type": "string",
                    "minLength": 1
                  },
                  "devices": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 1000,
                    "default": 1
                  }
                }
              },
              "OneSignalSubscriptionChanges": {
                "oneOf": [
                  {
                    "$ref": "#/components/schemas/OneSignalSubscriptionChange"
                  },
                  {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/OneSignalSubscriptionChange"
                    }
                  },
                  {
                    "type": "object",
                    "required": [
                      "subscriptions"
                    ],
                    "additionalProperties": false,
                    "properties": {
                      "subscriptions": {
                        "type": "array",
                        "items": {
                          "$ref": "#/components/schemas/OneSignalSubscriptionChange"
                        }
                      }
                    }
                  }
                ]
              }
            }
          }
        }

        """#
}
